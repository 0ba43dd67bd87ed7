// What the Redis clients really reject an in-flight command with when the connection is reset under it (a Redis
// killed mid-command), and that the one outage rule knows it: node-redis passes the socket's own `read ECONNRESET`
// on, ioredis says "Connection is closed.". Unknown to the rule, such a rejection from a command nobody awaited
// (the socket.io adapter's publish) made the server exit during the Redis-outage fault test.
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { Redis as IORedis } from 'ioredis';
import { createClient } from 'redis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isDependencyOutage } from './dependency-outage.js';

const upstream = new URL(process.env.LUMIBASE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');

/** A TCP proxy in front of the test Redis whose client side can be reset (RST) while a command waits. */
function resettingProxy(): { server: Server; port: () => number; reset: () => void } {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    const to = connect(Number(upstream.port || 6379), upstream.hostname);
    socket.pipe(to).pipe(socket);
    for (const end of [socket, to]) end.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      to.destroy();
    });
  });
  return {
    server,
    port: () => (server.address() as AddressInfo).port,
    reset: () => {
      for (const socket of sockets) socket.resetAndDestroy();
    },
  };
}

/** Resolves once the proxy holds a connection from the client (the command is in flight through it). */
async function blockedCommandIsInFlight(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 150));
}

describe('a Redis connection reset under an in-flight command', () => {
  let proxy: ReturnType<typeof resettingProxy>;
  beforeEach(async () => {
    proxy = resettingProxy();
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
  });
  afterEach(async () => {
    proxy.reset();
    await new Promise((resolve) => proxy.server.close(resolve));
  });

  it('node-redis rejects it with an error the outage rule takes as an outage', async () => {
    const client = createClient({
      url: `redis://127.0.0.1:${proxy.port()}`,
      socket: { reconnectStrategy: false },
      disableOfflineQueue: true,
    });
    client.on('error', () => {});
    await client.connect();
    const pending = client.blPop(`reset-test-${process.pid}-${Date.now()}`, 5).then(
      () => undefined,
      (error: unknown) => error,
    );
    await blockedCommandIsInFlight();
    proxy.reset();
    const error = await pending;
    expect(error).toBeInstanceOf(Error);
    expect(isDependencyOutage(error)).toBe(true);
    if (client.isOpen) client.destroy();
  });

  it('ioredis (BullMQ) rejects it with an error the outage rule takes as an outage', async () => {
    const client = new IORedis({ host: '127.0.0.1', port: proxy.port(), maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => {});
    await new Promise((resolve) => client.once('ready', resolve));
    const pending = client.blpop(`reset-test-${process.pid}-${Date.now()}`, 5).then(
      () => undefined,
      (error: unknown) => error,
    );
    await blockedCommandIsInFlight();
    proxy.reset();
    const error = await pending;
    expect(error).toBeInstanceOf(Error);
    expect(isDependencyOutage(error)).toBe(true);
    client.disconnect();
  });

  it('a bug is still not an outage', () => {
    expect(isDependencyOutage(new Error('read ECONNRESET'))).toBe(false);
    expect(isDependencyOutage(Object.assign(new Error('bad'), { code: 'ERR_INVALID_ARG_TYPE' }))).toBe(false);
  });
});
