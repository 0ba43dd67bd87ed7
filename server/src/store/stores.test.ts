// The accounts and CMS stores over the wire (embedded MongoDB, or MONGODB_URI): scoping, ids, indexes, idempotency.
import { ConflictError } from '@lumibase/shared';
import fc from 'fast-check';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { ItemStore } from './item.store.js';
import { createTestStores } from '../../test-support/test-stores.js';
import type { Stores } from './stores.js';

let database: TestDatabase;
let stores: Stores;

beforeAll(async () => {
  database = await openTestDatabase('stores');
  ({ stores } = await createTestStores(database.connection));
});
afterAll(async () => database?.close());

const newSiteId = async () => (await stores.sites.create(`Site ${new Types.ObjectId().toString()}`)).id;

describe('createStores', () => {
  it('builds the indexes the queries and uniqueness rules rely on', async () => {
    const indexes = async (name: string) =>
      (await database.connection.db!.collection(name).listIndexes().toArray()) as Array<Record<string, unknown>>;
    expect(await indexes('users')).toContainEqual(expect.objectContaining({ key: { email: 1 }, unique: true }));
    expect(await indexes('memberships')).toContainEqual(expect.objectContaining({ key: { siteId: 1, userId: 1 }, unique: true }));
    expect(await indexes('sessions')).toContainEqual(expect.objectContaining({ key: { tokenHash: 1 }, unique: true }));
    expect(await indexes('sessions')).toContainEqual(expect.objectContaining({ key: { expiresAt: 1 }, expireAfterSeconds: 0 }));
    expect(await indexes('cms_collections')).toContainEqual(expect.objectContaining({ key: { siteId: 1, name: 1 }, unique: true }));
    expect(await indexes('cms_items')).toContainEqual(expect.objectContaining({ key: { siteId: 1, collectionId: 1, createdAt: -1 } }));
  });

  it('can run twice on one connection (a second compose reuses the models)', async () => {
    await expect(createTestStores(database.connection)).resolves.toBeDefined();
  });
});

describe('a collection created', () => {
  it('is stored with its site, fields, revision, operation and times, and refuses its name again unless the same operation asks', async () => {
    const siteId = await newSiteId();
    const { collections } = stores.forSite(siteId);
    const before = Date.now();
    const fields = [{ name: 'title', type: 'string' as const, required: true, options: { maxLength: 80 } }];
    const created = await collections.create({ name: 'posts', label: 'Posts', fields, operationId: 'op-1' });
    await stores.relay.idle();
    const stored = await database.connection.collection('cms_collections').findOne({ _id: new Types.ObjectId(created.id) });
    expect(stored).toMatchObject({
      siteId: new Types.ObjectId(siteId),
      name: 'posts',
      label: 'Posts',
      revision: 0,
      operationId: 'op-1',
      outbox: [],
    });
    // Options are kept as JSON text (json-codec.ts): any key a field's options hold is safe to store.
    expect(stored!.fields).toEqual([{ name: 'title', type: 'string', required: true, options: { json: '{"maxLength":80}' } }]);
    expect(stored!.createdAt).toBeInstanceOf(Date);
    expect(stored!.createdAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(stored!.updatedAt).toEqual(stored!.createdAt);
    expect(created).toMatchObject({ name: 'posts', label: 'Posts', fields, revision: 0, operationId: 'op-1', restoredTrashIds: [] });
    expect(created.createdAt).toBe(stored!.createdAt.toISOString());
    expect(await collections.findByName('posts')).toEqual(created);
    // Without a label or an operation, neither is stored (not even as null).
    const plain = await collections.create({ name: 'notes', fields: [] });
    const storedPlain = await database.connection.collection('cms_collections').findOne({ _id: new Types.ObjectId(plain.id) });
    expect(storedPlain).not.toHaveProperty('label');
    expect(storedPlain).not.toHaveProperty('operationId');

    expect(await collections.create({ name: 'posts', fields: [], operationId: 'op-1' })).toEqual(created);
    await expect(collections.create({ name: 'posts', fields: [], operationId: 'op-2' })).rejects.toBeInstanceOf(ConflictError);
    await expect(collections.create({ name: 'posts', fields: [] })).rejects.toBeInstanceOf(ConflictError);
  });
});

describe('an item inserted', () => {
  it('is stored with its site, collection, data, revision and times, and its first revision beside it once relayed', async () => {
    const siteId = await newSiteId();
    const site = stores.forSite(siteId);
    const posts = await site.collections.create({ name: 'posts', fields: [] });
    const actor = { id: 'u-ada', name: 'Ada' };
    const item = await site.items.insert(posts, { title: 'Hello', tags: ['a', 'b'] }, 'op-7', {
      actor,
      via: 'copilot',
      approvalId: 'ap-1',
    });
    await stores.relay.idle();
    const db = database.connection;
    const stored = await db.collection('cms_items').findOne({ _id: new Types.ObjectId(item.id) });
    expect(stored).toMatchObject({
      siteId: new Types.ObjectId(siteId),
      collectionId: new Types.ObjectId(posts.id),
      revision: 1,
      operationId: 'op-7',
      outbox: [],
      owedRevisions: [],
    });
    expect(stored!.createdAt).toBeInstanceOf(Date);
    expect(stored!.updatedAt).toEqual(stored!.createdAt);
    expect(item).toMatchObject({ data: { title: 'Hello', tags: ['a', 'b'] }, revision: 1, createdAt: stored!.createdAt.toISOString() });
    expect(await site.items.findById(posts.id, item.id)).toEqual(item);
    const revision = await db.collection('item_revisions').findOne({ itemId: new Types.ObjectId(item.id) });
    expect(revision).toMatchObject({
      siteId: new Types.ObjectId(siteId),
      collectionId: new Types.ObjectId(posts.id),
      revision: 1,
      action: 'created',
      actor,
      via: 'copilot',
      approvalId: 'ap-1',
      operationId: 'op-7',
      createdAt: stored!.createdAt,
    });
    expect(JSON.parse(revision!.dataJson)).toEqual({ title: 'Hello', tags: ['a', 'b'] });
    // The same operation again answers with the same item; nothing is inserted twice.
    expect(await site.items.insert(posts, { title: 'Again' }, 'op-7')).toEqual(item);
    expect(await db.collection('cms_items').countDocuments({ siteId: new Types.ObjectId(siteId) })).toBe(1);
  });
});

describe('site-scoped stores', () => {
  it('cannot be built without a well-formed site id', () => {
    expect(() => stores.forSite('not-an-id')).toThrow(TypeError);
    expect(() => new ItemStore(stores.models.items, '', stores.relay)).toThrow(TypeError);
  });

  it("never find, change or delete another site's item, even given its collection id", async () => {
    const [siteA, siteB] = [await newSiteId(), await newSiteId()];
    const collection = await stores.forSite(siteA).collections.create({ name: 'posts', fields: [] });
    const item = await stores.forSite(siteA).items.insert(collection, { title: 'A only' });
    const b = stores.forSite(siteB).items;
    expect(await b.findById(collection.id, item.id)).toBeNull();
    expect(await b.update(collection, item.id, { set: { title: 'B was here' }, unset: [] })).toBeNull();
    expect(await b.delete(collection, item.id)).toBe(false);
    expect(await b.list(collection.id, { limit: 10, offset: 0 })).toEqual({ records: [], total: 0 });
    expect(await b.deleteAll(collection.id)).toBe(0);
    await b.unsetField(collection.id, 'title');
    expect((await stores.forSite(siteA).items.findById(collection.id, item.id))?.data).toEqual({ title: 'A only' });
  });

  it('expose ids as `id` strings and never `_id`', async () => {
    const siteId = await newSiteId();
    const site = stores.forSite(siteId);
    const collection = await site.collections.create({ name: 'shapes', fields: [{ name: 'n', type: 'integer', required: false }] });
    const item = await site.items.insert(collection, { n: 1 });
    for (const record of [
      collection,
      item,
      await site.collections.findByName('shapes'),
      await site.items.findById(collection.id, item.id),
    ]) {
      expect(record).not.toHaveProperty('_id');
      expect(record!.id).toMatch(/^[0-9a-f]{24}$/);
    }
    expect(item).toEqual({ id: item.id, data: { n: 1 }, createdAt: expect.any(String), updatedAt: expect.any(String), revision: 1 });
  });

  it('answer null, not an exception, for malformed ids', async () => {
    const siteId = await newSiteId();
    const site = stores.forSite(siteId);
    const collection = await site.collections.create({ name: 'c', fields: [] });
    for (const id of ['', 'nope', '{"$gt":""}', 'g'.repeat(24)]) {
      expect(await site.items.findById(collection.id, id)).toBeNull();
      expect(await site.items.delete(collection, id)).toBe(false);
      expect(await site.members.get(id)).toBeNull();
      expect(await stores.sites.findById(id)).toBeNull();
      expect(await stores.users.findById(id)).toBeNull();
    }
  });
});

describe('collections', () => {
  it('are unique by name within a site only', async () => {
    const [siteA, siteB] = [await newSiteId(), await newSiteId()];
    await stores.forSite(siteA).collections.create({ name: 'posts', fields: [] });
    await expect(stores.forSite(siteA).collections.create({ name: 'posts', fields: [] })).rejects.toBeInstanceOf(ConflictError);
    await expect(stores.forSite(siteB).collections.create({ name: 'posts', fields: [] })).resolves.toMatchObject({ name: 'posts' });
  });

  it('replace fields only at the expected revision', async () => {
    const site = stores.forSite(await newSiteId());
    const created = await site.collections.create({ name: 'cas', fields: [] });
    const first = await site.collections.replaceFields('cas', created.revision, [{ name: 'a', type: 'string', required: false }], {
      action: 'created',
      field: 'a',
    });
    expect(first?.revision).toBe(created.revision + 1);
    expect(
      await site.collections.replaceFields('cas', created.revision, [{ name: 'b', type: 'string', required: false }], {
        action: 'created',
        field: 'b',
      }),
    ).toBeNull();
    expect((await site.collections.findByName('cas'))?.fields.map((field) => field.name)).toEqual(['a']);
  });

  it('keep field options with any keys intact', async () => {
    const site = stores.forSite(await newSiteId());
    const options = { values: ['a'], $where: 'x', 'dotted.key': { $gt: 1 } };
    await site.collections.create({ name: 'opts', fields: [{ name: 'e', type: 'enum', required: true, options }] });
    expect((await site.collections.findByName('opts'))?.fields).toEqual([{ name: 'e', type: 'enum', required: true, options }]);
  });
});

describe('items', () => {
  it('round-trip any JSON value deep-equal, whatever its keys', { timeout: 120_000 }, async () => {
    const site = stores.forSite(await newSiteId());
    const collection = await site.collections.create({ name: 'json', fields: [] });
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.jsonValue()), async (data) => {
        const clean = JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
        const created = await site.items.insert(collection, clean);
        expect((await site.items.findById(collection.id, created.id))?.data).toEqual(clean);
        const patch = { a: { $set: { 'x.y': [null, '\u0000', -1.5e300] } } };
        expect((await site.items.update(collection, created.id, { set: patch, unset: ['b'] }))?.data).toEqual({
          ...clean,
          ...patch,
          b: undefined,
        });
      }),
      { numRuns: 100 },
    );
  });

  it('insert once per operation id, also when the same operation runs concurrently', async () => {
    const site = stores.forSite(await newSiteId());
    const collection = await site.collections.create({ name: 'ops', fields: [] });
    const first = await site.items.insert(collection, { n: 1 }, 'op-1');
    expect(await site.items.insert(collection, { n: 2 }, 'op-1')).toEqual(first);
    const concurrent = await Promise.all(Array.from({ length: 6 }, () => site.items.insert(collection, { n: 3 }, 'op-2')));
    expect(new Set(concurrent.map((item) => item.id)).size).toBe(1);
    expect(await site.items.count(collection.id)).toBe(2);
    // Operation ids are per site: another site's same id is another operation.
    const other = stores.forSite(await newSiteId());
    const otherCollection = await other.collections.create({ name: 'ops', fields: [] });
    expect((await other.items.insert(otherCollection, { n: 1 }, 'op-1')).id).not.toBe(first.id);
  });

  it('unset and rename a field across the collection, and delete all of one collection only', async () => {
    const site = stores.forSite(await newSiteId());
    const posts = await site.collections.create({ name: 'posts', fields: [] });
    const pages = await site.collections.create({ name: 'pages', fields: [] });
    const post = await site.items.insert(posts, { a: 1, b: 2 });
    const page = await site.items.insert(pages, { a: 1, b: 2 });
    await site.items.unsetField(posts.id, 'a');
    await site.items.renameField(posts.id, 'b', 'c');
    expect((await site.items.findById(posts.id, post.id))?.data).toEqual({ c: 2 });
    expect((await site.items.findById(pages.id, page.id))?.data).toEqual({ a: 1, b: 2 });
    expect(await site.items.deleteAll(posts.id)).toBe(1);
    expect(await site.items.count(pages.id)).toBe(1);
  });
});

describe('users, sessions and memberships', () => {
  it('refuse a second user with the same email', async () => {
    const user = { email: `same-${new Types.ObjectId().toString()}@example.test`, name: 'A', passwordHash: 'h', isSuperadmin: false };
    await stores.users.create(user);
    await expect(stores.users.create(user)).rejects.toBeInstanceOf(ConflictError);
    expect((await stores.users.findCredentials(user.email))?.passwordHash).toBe('h');
    expect(await stores.users.findByEmail(user.email)).not.toHaveProperty('passwordHash');
  });

  it('find a session only until it expires', async () => {
    const user = await stores.users.create({
      email: `s-${new Types.ObjectId().toString()}@example.test`,
      name: 'S',
      passwordHash: 'h',
      isSuperadmin: false,
    });
    const expiresAt = new Date(Date.now() + 60_000);
    const session = await stores.sessions.create({ tokenHash: `hash-${user.id}`, userId: user.id, expiresAt });
    expect(await stores.sessions.findActive(`hash-${user.id}`, new Date())).toEqual({ id: session.id, userId: user.id, expiresAt });
    expect(await stores.sessions.findActive(`hash-${user.id}`, new Date(expiresAt.getTime() + 1))).toBeNull();
    expect(await stores.sessions.delete(session.id)).toBe(true);
    expect(await stores.sessions.findActive(`hash-${user.id}`, new Date())).toBeNull();
  });

  it('keep one membership per user and site under concurrent puts, listed per site and per user', async () => {
    const user = await stores.users.create({
      email: `m-${new Types.ObjectId().toString()}@example.test`,
      name: 'M',
      passwordHash: 'h',
      isSuperadmin: false,
    });
    const [siteA, siteB] = [await newSiteId(), await newSiteId()];
    const puts = await Promise.all(Array.from({ length: 5 }, () => stores.forSite(siteA).members.put(user.id, 'viewer', [])));
    expect(new Set(puts.map((put) => put.createdAt)).size).toBe(1);
    const replaced = await stores.forSite(siteA).members.put(user.id, 'editor', ['users:write']);
    expect(replaced).toMatchObject({ userId: user.id, role: 'editor', capabilities: ['users:write'], createdAt: puts[0]!.createdAt });
    await stores.forSite(siteB).members.put(user.id, 'admin', []);
    expect((await stores.forSite(siteA).members.list({ limit: 10, offset: 0 })).total).toBe(1);
    expect((await stores.userMemberships.listForUser(user.id)).map((membership) => membership.siteId).sort()).toEqual(
      [siteA, siteB].sort(),
    );
    expect(await stores.forSite(siteA).members.remove(user.id)).toBe(true);
    expect(await stores.forSite(siteA).members.remove(user.id)).toBe(false);
    expect(await stores.forSite(siteB).members.get(user.id)).toMatchObject({ role: 'admin' });
  });
});
