// The outage-aware envelope: an error no rule knows answers 503 while a backing service does not answer, 500 otherwise.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import type { DependencyCheck } from '../infrastructure/dependency-check.js';
import { createLogger } from '../logger.js';
import { createErrorMiddleware } from './error-middleware.js';
import { requestContext } from './request-context.js';

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function answerOf(
  check: DependencyCheck['check'],
): Promise<{ status: number; body: { error: { code: string } }; retryAfter: string | null }> {
  const app = express();
  app.use(requestContext(createLogger({ level: 'silent' })));
  app.get('/boom', () => {
    throw new Error('an error class no outage rule lists');
  });
  app.use(createErrorMiddleware({ dependencies: [{ name: 'mongo', check }] }));
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/boom`);
  return {
    status: response.status,
    body: (await response.json()) as { error: { code: string } },
    retryAfter: response.headers.get('retry-after'),
  };
}

describe('an unclassified error', () => {
  it('is a 500 while every backing service answers', async () => {
    const answer = await answerOf(async () => 'pong');
    expect(answer.status).toBe(500);
    expect(answer.body.error.code).toBe('INTERNAL');
  });

  it('is the outage’s 503 with Retry-After while a backing service refuses', async () => {
    const answer = await answerOf(async () => {
      throw new Error('connection refused');
    });
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('UNAVAILABLE');
    expect(answer.retryAfter).toMatch(/^\d+$/);
  });

  it('is a 503 within seconds while a backing service hangs', async () => {
    const started = Date.now();
    const answer = await answerOf(() => new Promise(() => {}));
    expect(answer.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
