// Requests trust what their process learned of a token and a membership only under the access epoch: the next
// request after a revocation, in any process, is refused, while requests with nothing revoked read one document.
import { randomBytes } from 'node:crypto';
import { ObjectId } from 'mongodb';
import { ForbiddenError, UnauthenticatedError } from '@lumibase/shared';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasswordHasher } from '../security/password-hasher.js';
import { generateSessionToken, hashSessionToken } from '../security/session-token.js';
import type { AiStores } from '../store/ai/ai-stores.js';
import type { Stores } from '../store/stores.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createTestStores } from '../../test-support/test-stores.js';
import { openWatchedConnection, type WatchedConnection } from '../../test-support/watched-connection.js';
import { createServices, type Services } from './index.js';

const hasher = new PasswordHasher({ N: 1024, r: 8, p: 1 });
let database: TestDatabase;
let watched: WatchedConnection;
const redisClients: RedisClientType[] = [];

/** One process: its own connection, stores and services (and so its own caches). */
async function processOn(connection: WatchedConnection['connection']): Promise<{ stores: Stores; services: Services; aiStores: AiStores }> {
  const redis: RedisClientType = createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
  await redis.connect();
  redisClients.push(redis);
  const { stores, aiStores } = await createTestStores(connection);
  const services = createServices({
    stores,
    redis,
    redisPrefix: `access-epoch-${randomBytes(4).toString('hex')}:`,
    sessionTtlHours: 1,
    hasher,
  });
  return { stores, services, aiStores };
}

let a: Awaited<ReturnType<typeof processOn>>;
let b: Awaited<ReturnType<typeof processOn>>;

beforeAll(async () => {
  database = await openTestDatabase('access_epoch');
  watched = await openWatchedConnection(database);
  a = await processOn(watched.connection);
  b = await processOn(await database.connect());
});
afterAll(async () => {
  await Promise.all(redisClients.map((client) => client.quit()));
  await watched.close();
  await database.close();
});

/** A member of a new site with a live session, as B (any process) creates them. */
async function memberWithSession(role: 'admin' | 'editor' | 'viewer' = 'editor') {
  const user = await b.stores.users.create({
    email: `${randomBytes(4).toString('hex')}@example.test`,
    name: 'Member',
    passwordHash: 'x',
    isSuperadmin: false,
  });
  const site = await b.stores.sites.create(`Site ${randomBytes(3).toString('hex')}`);
  await b.stores.forSite(site.id).members.put(user.id, role, []);
  const token = generateSessionToken();
  const session = await b.stores.sessions.create({
    tokenHash: hashSessionToken(token),
    userId: user.id,
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return { user, site, token, sessionId: session.id };
}

/** What process A's request does: authenticate, then resolve the site under the epoch it read. */
async function requestInA(token: string, siteId: string) {
  const authenticated = await a.services.auth.authenticate(token);
  const resolved = await a.services.access.resolve(authenticated.user, siteId, authenticated.epoch);
  return { ...authenticated, ...resolved };
}

describe('the access epoch', () => {
  it('a repeated request reads the epoch and nothing else of the session, the user, the site or the membership', async () => {
    const { token, site } = await memberWithSession();
    await requestInA(token, site.id);
    watched.take();
    const again = await requestInA(token, site.id);
    expect(watched.take()).toEqual(['find access_epochs']);
    expect(again.role).toBe('editor');
    expect(again.site.id).toBe(site.id);
  });

  it('requests arriving at once share their epoch read; every one after a revocation answered is refused', async () => {
    const { user, token, site, sessionId } = await memberWithSession();
    await requestInA(token, site.id);
    watched.take();
    const wave = await Promise.all(Array.from({ length: 20 }, () => requestInA(token, site.id)));
    expect(wave.every((answer) => answer.site.id === site.id)).toBe(true);
    const reads = watched.take();
    expect(reads.every((command) => command === 'find access_epochs')).toBe(true);
    expect(reads.length, 'one read, and the one the requests arriving during it share').toBeLessThanOrEqual(2);

    const during = Array.from({ length: 10 }, () =>
      requestInA(token, site.id).then(
        () => 'answered' as const,
        (error: unknown) => error,
      ),
    );
    await b.services.auth.logout({ sessionId, userId: user.id });
    const after = await Promise.allSettled(Array.from({ length: 10 }, () => requestInA(token, site.id)));
    expect(after.every((outcome) => outcome.status === 'rejected' && outcome.reason instanceof UnauthenticatedError)).toBe(true);
    // Those concurrent with the logout may go either way, as without any cache, but a refusal is the session's.
    expect((await Promise.all(during)).every((outcome) => outcome === 'answered' || outcome instanceof UnauthenticatedError)).toBe(true);
  });

  it('a session ended in another process is refused by the very next request here', async () => {
    const { user, token, site, sessionId } = await memberWithSession();
    await requestInA(token, site.id);
    await b.services.auth.logout({ sessionId, userId: user.id });
    await expect(requestInA(token, site.id)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('every session of a user ended elsewhere (a password change) is refused here at once', async () => {
    const { user, token, site } = await memberWithSession();
    await requestInA(token, site.id);
    expect(await b.stores.sessions.deleteForUser(user.id)).toHaveLength(1);
    await expect(requestInA(token, site.id)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('a membership removed or changed in another process takes effect on the next request here', async () => {
    const { user, token, site } = await memberWithSession('admin');
    expect((await requestInA(token, site.id)).role).toBe('admin');
    await b.stores.forSite(site.id).members.put(user.id, 'viewer', []);
    const demoted = await requestInA(token, site.id);
    expect(demoted.role).toBe('viewer');
    expect(demoted.capabilities).not.toContain('schema:write');
    await b.stores.forSite(site.id).members.remove(user.id);
    await expect(requestInA(token, site.id)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('a site renamed or deleted elsewhere, and a user renamed or deleted elsewhere, are what the next request here sees', async () => {
    const { user, token, site } = await memberWithSession();
    await requestInA(token, site.id);
    await b.stores.sites.rename(site.id, 'Renamed');
    await b.stores.users.update(user.id, { name: 'New name' });
    const after = await requestInA(token, site.id);
    expect(after.site.name).toBe('Renamed');
    expect(after.user.name).toBe('New name');
    await b.stores.sites.deleteWithContents(site.id);
    await expect(requestInA(token, site.id)).rejects.toBeInstanceOf(ForbiddenError);
    const other = await memberWithSession();
    await requestInA(other.token, other.site.id);
    await b.stores.users.delete(other.user.id);
    await expect(requestInA(other.token, other.site.id)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('a revocation landing between the epoch read and the session read is never trusted afterwards', async () => {
    const { user, token, site, sessionId } = await memberWithSession();
    const findActive = a.stores.sessions.findActive.bind(a.stores.sessions);
    // A's request reads the epoch, then B logs the session out, then A reads the session (still there for this read).
    a.stores.sessions.findActive = async (tokenHash, now) => {
      a.stores.sessions.findActive = findActive;
      const found = await findActive(tokenHash, now);
      await b.services.auth.logout({ sessionId, userId: user.id });
      return found;
    };
    // Concurrent with the logout: answered, as it would have been without any cache.
    await requestInA(token, site.id);
    await expect(requestInA(token, site.id)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('an emptied epoch collection starts a new epoch, never one that was trusted before', async () => {
    const { token, site, sessionId } = await memberWithSession();
    await requestInA(token, site.id);
    // Both gone behind the stores' back (a restore from backup, a wiped collection): nothing moved the epoch.
    await database.connection.collection('access_epochs').deleteMany({});
    await database.connection.collection('sessions').deleteOne({ _id: new ObjectId(sessionId) });
    await expect(requestInA(token, site.id)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it("work on a user's authority outside a request (an approved skill, the Copilot after it) follows the same epoch", async () => {
    const { user, site } = await memberWithSession('admin');
    expect((await a.services.access.resolveUser(user.id, site.id)).role).toBe('admin');
    watched.take();
    expect((await a.services.access.resolveUser(user.id, site.id)).capabilities).toContain('schema:write');
    expect(watched.take()).toEqual(['find access_epochs']);
    await b.stores.forSite(site.id).members.put(user.id, 'viewer', []);
    expect((await a.services.access.resolveUser(user.id, site.id)).role).toBe('viewer');
    await b.stores.users.delete(user.id);
    await expect(a.services.access.resolveUser(user.id, site.id)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('an expired session is refused even under the epoch it was learned under', async () => {
    const { user, site } = await memberWithSession();
    const token = generateSessionToken();
    await b.stores.sessions.create({ tokenHash: hashSessionToken(token), userId: user.id, expiresAt: new Date(Date.now() + 300) });
    await requestInA(token, site.id);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await expect(requestInA(token, site.id)).rejects.toBeInstanceOf(UnauthenticatedError);
  });
});
