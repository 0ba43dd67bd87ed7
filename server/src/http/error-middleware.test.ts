// Every outage a 503 (docs/API.md "Conventions"): an error a class rule knows, and any other error raised while a backing
// service does not answer its health probe; a 500 only while they all answer. Real driver errors, provoked against
// servers that are not there, and real probes (node-redis against a closed port and the test Redis).
import { type AddressInfo, createServer } from 'node:net';
import { ValidationError } from '@lumibase/shared';
import express from 'express';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DependencyCheck } from '../infrastructure/dependency-check.js';
import { createLogger } from '../logger.js';
import { createErrorMiddleware } from './error-middleware.js';
import { requestContext } from './request-context.js';

const REDIS_URL = process.env.LUMIBASE_TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  await new Promise((closed) => server.close(closed));
  return port;
}

let deadPort: number;
const liveRedis = createClient({ url: REDIS_URL });
/** The server's own Redis probe, against a Redis that is not there (never connected: its ping throws). */
const deadRedis = createClient({ url: `redis://127.0.0.1:1`, disableOfflineQueue: true });
const up: DependencyCheck = { name: 'redis', check: () => liveRedis.ping() };
const down: DependencyCheck = { name: 'redis', check: () => deadRedis.ping() };

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(async () => {
  deadPort = await closedPort();
  await liveRedis.connect();
  process.on('unhandledRejection', onUnhandled);
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await liveRedis.quit();
});

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
  expect(unhandled, 'unhandled rejections').toEqual([]);
});

/** What a route that fails with `error` answers, the app's error middleware probing `dependencies`. */
async function answerTo(
  error: unknown,
  dependencies: DependencyCheck[],
): Promise<{ status: number; code: string | undefined; retryAfter: string | null; ms: number }> {
  const app = express();
  app.use(requestContext(createLogger({ level: 'silent' })));
  app.get('/fails', () => {
    throw error;
  });
  app.use(createErrorMiddleware({ dependencies }));
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((listening) => server.once('listening', listening));
  const started = Date.now();
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/fails`);
  const body = (await response.json()) as { error?: { code: string } };
  return { status: response.status, code: body.error?.code, retryAfter: response.headers.get('retry-after'), ms: Date.now() - started };
}

/** ioredis (BullMQ's client) refusing a command: its real error, whatever class it is. */
async function ioredisError(options: { maxRetriesPerRequest: number; enableOfflineQueue: boolean }): Promise<unknown> {
  const client = new Redis({ host: '127.0.0.1', port: deadPort, lazyConnect: true, retryStrategy: () => 50, ...options });
  client.on('error', () => {});
  try {
    if (!options.enableOfflineQueue) await client.connect().catch(() => {});
    await client.get('anything');
    throw new Error('ioredis answered without a server');
  } catch (error) {
    return error;
  } finally {
    client.disconnect();
  }
}

describe('an error the class rules know', () => {
  it('MongoDB out of reach (a real MongoServerSelectionError) → 503 with Retry-After, even while the probes answer', async () => {
    const client = new MongoClient(`mongodb://127.0.0.1:${deadPort}/?serverSelectionTimeoutMS=300`);
    const error = await client
      .db('x')
      .command({ ping: 1 })
      .catch((caught: unknown) => caught);
    await client.close();
    expect((error as Error).name).toBe('MongoServerSelectionError');
    const answer = await answerTo(error, [up]);
    expect(answer).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
    expect(answer.retryAfter).toMatch(/^\d+$/);
  });

  it('ioredis giving a command up after its retries (MaxRetriesPerRequestError) → 503, even while the probes answer', async () => {
    const error = await ioredisError({ maxRetriesPerRequest: 1, enableOfflineQueue: true });
    expect((error as Error).name).toBe('MaxRetriesPerRequestError');
    expect(await answerTo(error, [up])).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
  });

  it('bad input stays a 400, probes or not', async () => {
    expect(await answerTo(new ValidationError({ message: 'no' }), [down])).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
  });
});

describe('an error no class rule lists', () => {
  it('ioredis refusing a command on a closed connection (a plain Error) → 503 while Redis does not answer its probe', async () => {
    const error = await ioredisError({ maxRetriesPerRequest: 0, enableOfflineQueue: false });
    expect((error as Error).constructor).toBe(Error);
    expect(await answerTo(error, [up, down])).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
  });

  it('→ 500 while every backing service answers its probe', async () => {
    expect(await answerTo(new TypeError('x is undefined'), [up])).toMatchObject({ status: 500, code: 'INTERNAL' });
  });

  it('→ 503 within the probe bound when a probe hangs, throws synchronously or rejects late; nothing unhandled', async () => {
    const hangs: DependencyCheck = { name: 'mongo', check: () => new Promise(() => {}) };
    const throws: DependencyCheck = {
      name: 'mongo',
      check: () => {
        throw new Error('probe failed before it started');
      },
    };
    const rejectsLate: DependencyCheck = {
      name: 'mongo',
      check: () => new Promise((_resolve, reject) => setTimeout(() => reject(new Error('late')), 1500)),
    };
    for (const probe of [hangs, throws, rejectsLate]) {
      const answer = await answerTo(new Error('unlisted'), [up, probe]);
      expect(answer, probe.check.toString()).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
      expect(answer.ms).toBeLessThan(3000);
    }
    // The late rejection lands after its answer: still handled.
    await new Promise((resolve) => setTimeout(resolve, 700));
  });
});

describe('an error after the answer began', () => {
  it('closes the connection (no status left to choose) and takes nothing down', async () => {
    const app = express();
    app.use(requestContext(createLogger({ level: 'silent' })));
    app.get('/half', (_request, response, next) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('partial');
      next(new Error('failed mid-answer'));
    });
    app.use(createErrorMiddleware({ dependencies: [down] }));
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((listening) => server.once('listening', listening));
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/half`);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });
});
