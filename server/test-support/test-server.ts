// For route tests: the API and the workers composed in-process from the parts the all-in-one process composes
// (compose-process.ts, compose-workers.ts: one domain over embedded Mongo and real Redis; decisions go through
// BullMQ to the skill-execution worker), with the pieces a test replaces built here, and a small fetch client.
// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are whatever the server sent; tests assert their shape.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type ErrorEnvelope, ErrorEnvelope as ErrorEnvelopeSchema } from '@lumibase/shared';
import { createClient, type RedisClientType } from 'redis';
import type { SkillExecutionQueue } from '../src/approvals/skill-execution.queue.js';
import type { SkillExecutors } from '../src/skills/skill-executors.js';
import { listen, openHttpServer, startApi, startDomain, startSkillExecutionQueue } from '../src/compose-process.js';
import type { ComposedServer } from '../src/compose-server.js';
import { composeJobHandlers, startWorkers } from '../src/compose-workers.js';
import { loadConfig } from '../src/config.js';
import { createEmbedder } from '../src/retrieval/embeddings/create-embedder.js';
import type { Embedder } from '../src/retrieval/embeddings/embedder.js';
import { Lifecycle } from '../src/lifecycle.js';
import { createLogger } from '../src/logger.js';
import type { JobHandler } from '../src/infrastructure/queue-table.js';
import { openTestDatabase, type TestDatabase } from './test-database.js';

export const ADMIN_EMAIL = 'root@lumibase.test';
export const ADMIN_PASSWORD = 'root-password-1';
/** Cheap scrypt for tests (the hasher's own test covers the production cost). */
const TEST_SCRYPT = { N: 1024, r: 8, p: 1 };

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is, for malformed JSON. */
  rawBody?: string;
  token?: string;
  siteId?: string;
  headers?: Record<string, string>;
}

export interface TestServer {
  baseUrl: string;
  /** QUEUE_PREFIX: its queues, rate limits and caches in Redis. */
  prefix: string;
  apiUrl: string;
  database: TestDatabase;
  redis: RedisClientType;
  composed: ComposedServer;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  login(email: string, password: string, address?: string): Promise<string>;
  /** A fresh user with a membership in `siteId` (when given), signed in. */
  createMember(options: {
    siteId?: string;
    role?: 'admin' | 'editor' | 'viewer';
    capabilities?: string[];
  }): Promise<{ id: string; email: string; token: string }>;
  createSite(name?: string): Promise<string>;
  /** A second API over the same database, Redis and prefix (scale mode's N servers), stopped by close(). */
  startPeer(): Promise<{ baseUrl: string }>;
  adminToken: string;
  close(): Promise<void>;
}

/** What a test builds differently from production, each a function of the real piece (wrap it, or return another). */
export interface TestServerParts {
  /** The skill executors the gate and the skill-execution worker run (one domain). */
  executors?: (real: SkillExecutors) => SkillExecutors;
  /** The skill-execution queue decisions add jobs to (the reconciler keeps the real one). */
  queue?: (real: SkillExecutionQueue) => SkillExecutionQueue;
  /** The embedder of search and of the embeddings worker. */
  embedder?: (real: Embedder) => Embedder;
  /** The skill-execution queue's handler (a test holds jobs before they run: fault-delays.ts). */
  skillExecution?: (real: JobHandler) => JobHandler;
  /** Hash passwords at the production cost (~50 ms), for tests of what that cost makes possible; otherwise cheap. */
  productionScrypt?: boolean;
  /** A second server of the same deployment: `sharing`'s database and Redis prefix (it cleans them up, so close this one first). */
  sharing?: TestServer;
}

let counter = 0;

export async function startTestServer(
  label: string,
  environment: Record<string, string> = {},
  parts: TestServerParts = {},
): Promise<TestServer> {
  const { sharing } = parts;
  const database = sharing?.database ?? (await openTestDatabase(label));
  const redisUrl = process.env.LUMIBASE_TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redis: RedisClientType = createClient({ url: redisUrl });
  await redis.connect();
  // Each server has its own prefix: its queue and rate limits are its own (unless it is another server of the same deployment).
  const prefix = sharing?.prefix ?? `test-${label}-${randomBytes(4).toString('hex')}`;
  const config = loadConfig({
    QUEUE_PREFIX: prefix,
    LUMIBASE_ADMIN_EMAIL: ADMIN_EMAIL,
    LUMIBASE_ADMIN_PASSWORD: ADMIN_PASSWORD,
    LOG_LEVEL: 'silent',
    ...environment,
  });
  const logger = createLogger({ level: 'silent' });
  const options = { config: { ...config, PORT: 0, HOST: '127.0.0.1' }, logger, redis, redisUrl };
  // A second server talks to the database over a connection of its own, as another process would.
  const mongo = sharing ? await database.connect() : database.connection;
  const domainOptions = {
    ...options,
    mongo,
    ...(parts.productionScrypt ? {} : { scryptParameters: TEST_SCRYPT }),
  };
  // As the all-in-one process composes itself (workers/src/all-in-one.ts), with the test's pieces.
  const lifecycle = new Lifecycle();
  const { composed, httpServer } = await lifecycle.compose(async () => {
    const { httpServer, sockets } = await openHttpServer(lifecycle, options);
    const queue = await startSkillExecutionQueue(lifecycle, options);
    const built = await startDomain(lifecycle, {
      ...domainOptions,
      publish: sockets.publish,
      disconnect: sockets.io,
      ...(parts.embedder ? { embedder: parts.embedder(createEmbedder(config, { onFallback: () => {} })) } : {}),
    });
    const domain = parts.executors ? { ...built, executors: parts.executors(built.executors) } : built;
    const composed = await startApi(lifecycle, {
      ...options,
      domain,
      queue: parts.queue ? parts.queue(queue) : queue,
      dependencies: [],
      sockets: { server: sockets, httpServer },
    });
    await listen(lifecycle, { ...options, httpServer });
    const handlers = composeJobHandlers({ ...options, domain, replies: sockets });
    if (parts.skillExecution) handlers.skillExecution = parts.skillExecution(handlers.skillExecution);
    await startWorkers(lifecycle, { ...options, domain, queue, handlers });
    return { composed, httpServer };
  });
  const baseUrl = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  const apiUrl = `${baseUrl}/api/v1`;

  async function request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    if (options.siteId !== undefined) headers['x-site-id'] = options.siteId;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
    const response = await fetch(path.startsWith('/api/') || path.startsWith('/healthz') ? baseUrl + path : apiUrl + path, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Left as text: a test asserting the envelope then fails visibly.
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  async function login(email: string, password: string, address?: string): Promise<string> {
    const response = await request('POST', '/auth/login', {
      body: { email, password },
      ...(address ? { headers: { 'x-forwarded-for': address } } : {}),
    });
    if (response.status !== 200) throw new Error(`login ${email} failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.data.token as string;
  }

  const adminToken = await login(ADMIN_EMAIL, ADMIN_PASSWORD);

  const peers: Lifecycle[] = [];
  /** Another API process of the deployment: its own sockets, queue producer and domain, no workers. */
  async function startPeer(): Promise<{ baseUrl: string }> {
    const peer = new Lifecycle();
    peers.push(peer);
    const peerServer = await peer.compose(async () => {
      const { httpServer, sockets } = await openHttpServer(peer, options);
      const queue = await startSkillExecutionQueue(peer, options);
      const domain = await startDomain(peer, { ...domainOptions, publish: sockets.publish, disconnect: sockets.io });
      await startApi(peer, { ...options, domain, queue, dependencies: [], sockets: { server: sockets, httpServer } });
      await listen(peer, { ...options, httpServer });
      return httpServer;
    });
    return { baseUrl: `http://127.0.0.1:${(peerServer.address() as AddressInfo).port}` };
  }

  async function createSite(name = `Site ${++counter}`): Promise<string> {
    const response = await request('POST', '/sites', { token: adminToken, body: { name } });
    if (response.status !== 201) throw new Error(`create site failed: ${response.status}`);
    return response.body.data.id as string;
  }

  async function createMember({
    siteId,
    role = 'editor',
    capabilities,
  }: {
    siteId?: string;
    role?: 'admin' | 'editor' | 'viewer';
    capabilities?: string[];
  }) {
    const email = `user${++counter}-${randomBytes(3).toString('hex')}@example.test`;
    const password = 'member-password';
    const created = await request('POST', '/users', { token: adminToken, body: { email, password, name: `User ${counter}` } });
    if (created.status !== 201) throw new Error(`create user failed: ${created.status} ${JSON.stringify(created.body)}`);
    const id = created.body.data.id as string;
    if (siteId) {
      const member = await request('PUT', `/members/${id}`, {
        token: adminToken,
        siteId,
        body: { role, ...(capabilities ? { capabilities } : {}) },
      });
      if (member.status !== 200) throw new Error(`add member failed: ${member.status} ${JSON.stringify(member.body)}`);
    }
    return { id, email, token: await login(email, password) };
  }

  return {
    baseUrl,
    prefix,
    apiUrl,
    database,
    redis,
    composed,
    request,
    login,
    createMember,
    createSite,
    startPeer,
    adminToken,
    async close() {
      for (const peer of peers) await peer.stop();
      await lifecycle.stop();
      if (sharing) return void (await redis.quit());
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(keys);
      await redis.quit();
      await database.close();
    },
  };
}

/** The error body without its requestId: what must be identical between two refusals. */
export function withoutRequestId(body: ErrorEnvelope): unknown {
  const { requestId: _requestId, ...rest } = body.error;
  return { error: rest };
}

/** Asserts-by-throwing that `body` is exactly an error envelope (strict: no stray fields). */
export function isErrorEnvelope(body: unknown): boolean {
  return (
    ErrorEnvelopeSchema.strict().safeParse(body).success &&
    ErrorEnvelopeSchema.shape.error.strict().safeParse((body as ErrorEnvelope).error).success
  );
}
