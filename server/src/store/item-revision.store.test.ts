// Item revisions are owed on the item with the change: a crash between the change and its relay loses none.
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createTestStores, type TestStores } from '../../test-support/test-stores.js';
import { encodeJson } from './json-codec.js';

let database: TestDatabase;
let testStores: TestStores;

beforeAll(async () => {
  database = await openTestDatabase('item-revisions');
  testStores = await createTestStores(database.connection);
});
afterAll(async () => database?.close());

async function freshSite() {
  const { stores } = testStores;
  const siteId = (await stores.sites.create(`Site ${new Types.ObjectId().toString()}`)).id;
  const site = stores.forSite(siteId);
  const collection = await site.collections.create({ name: 'posts', fields: [{ name: 'title', type: 'string', required: false }] });
  return { siteId, site, collection };
}

describe('item revisions', () => {
  it('are materialised, and a tombstone removed, only after a crash is reconciled: the change never lacks its revision', async () => {
    const { siteId, site, collection } = await freshSite();
    const actor = { id: 'u1', name: 'Ada' };
    const item = await site.items.insert(collection, { title: 'a' }, undefined, { actor, via: 'rest' });
    // A process that deleted the item and died before relaying: the tombstone still owes revision 2.
    const owed = {
      revision: 2,
      action: 'deleted',
      dataJson: encodeJson({ title: 'a' }),
      actor,
      via: 'approval',
      approvalId: 'ap1',
      createdAt: new Date(),
    };
    await testStores.stores.models.items.updateOne(
      { _id: new Types.ObjectId(item.id) },
      { $set: { deletedAt: new Date(), revision: 2 }, $push: { owedRevisions: owed } },
    );
    expect((await site.revisions.list(collection.id, item.id)).map((entry) => entry.revision)).toEqual([1]);

    await testStores.relay.relayAll();
    const history = await site.revisions.list(collection.id, item.id);
    expect(history.map((entry) => [entry.revision, entry.action, entry.via, entry.approvalId])).toEqual([
      [2, 'deleted', 'approval', 'ap1'],
      [1, 'created', 'rest', undefined],
    ]);
    expect(await testStores.stores.models.items.findById(item.id).lean()).toBeNull();
    // Relaying again (a second reconciler) adds nothing.
    await testStores.relay.relayAll();
    expect(await site.revisions.list(collection.id, item.id)).toHaveLength(2);
    // Another site sees none of it.
    const other = testStores.stores.forSite(new Types.ObjectId().toHexString());
    expect(await other.revisions.list(collection.id, item.id)).toEqual([]);
    expect(siteId).toBe(site.siteId);
  });

  it('re-creates a deleted item under its id after its last revision', async () => {
    const { site, collection } = await freshSite();
    const meta = { actor: { id: 'u1', name: 'Ada' }, via: 'rest' as const };
    const item = await site.items.insert(collection, { title: 'a' }, undefined, meta);
    expect(await site.items.delete(collection, item.id, meta)).toBe(true);
    expect(await site.items.replace(collection, item.id, { title: 'b' }, { ...meta, via: 'restore' })).toBeNull();
    const back = await site.items.recreate(collection, item.id, { title: 'a' }, 3, { ...meta, via: 'restore' });
    expect(back).toMatchObject({ id: item.id, data: { title: 'a' }, revision: 3 });
    // The id is taken now: a second re-create is refused, not duplicated.
    expect(await site.items.recreate(collection, item.id, { title: 'a' }, 4, { ...meta, via: 'restore' })).toBeNull();
    expect((await site.revisions.list(collection.id, item.id)).map((entry) => entry.action)).toEqual(['restored', 'deleted', 'created']);
  });
});
