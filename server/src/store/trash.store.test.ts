// The trash over the wire to the embedded Mongo: entries are site-scoped, listed only once the
// deletion is complete, claimed by a restore or a purge but never both; and an interrupted deletion
// or restore (a crash between two steps) loses nothing.
import { ConflictError } from '@lumibase/shared';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { CollectionsService } from '../services/collections.service.js';
import { FieldsService } from '../services/fields.service.js';
import { ItemsService } from '../services/items.service.js';
import { TrashPurge } from '../services/trash-purge.js';
import { TrashService } from '../services/trash.service.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createTestStores, type TestStores } from '../../test-support/test-stores.js';
import { RESTORE_LEASE_MS } from './trash.store.js';

let database: TestDatabase;
let testStores: TestStores;
let collections: CollectionsService;
let fields: FieldsService;
let items: ItemsService;
let trash: TrashService;

const DAY = 86_400_000;
const actor = { id: 'u1', name: 'Ada' };

beforeAll(async () => {
  database = await openTestDatabase('trash-store');
  testStores = await createTestStores(database.connection);
  const { stores, aiStores } = testStores;
  collections = new CollectionsService(stores);
  fields = new FieldsService(stores);
  items = new ItemsService(stores);
  trash = new TrashService({ stores, fields, audit: (siteId) => aiStores.forSite(siteId).audit });
});
afterAll(async () => database?.close());

async function freshSite() {
  const siteId = (await testStores.stores.sites.create(`Site ${new Types.ObjectId().toString()}`)).id;
  return { siteId, site: testStores.stores.forSite(siteId) };
}

/** A purge pass at `now`, treating any pending entry as abandoned. */
const purgeAt = (now: Date) =>
  new TrashPurge({ stores: testStores.stores, logger: createLogger({ level: 'silent' }), clock: () => now, pendingGraceMs: 0 }).purge();

function entryOf(siteId: string, collection: string, collectionId: string, kind: 'collection' | 'field' = 'collection') {
  const now = new Date();
  return testStores.stores.forSite(siteId).trash.create({
    kind,
    collectionId,
    collection,
    ...(kind === 'field' ? { field: 'colour' } : {}),
    definition: kind === 'field' ? { name: 'colour', type: 'string', required: false } : { fields: [] },
    items: 0,
    deletedBy: actor,
    deletedAt: now,
    expiresAt: new Date(now.getTime() + 30 * DAY),
  });
}

describe('TrashStore', () => {
  it('lists only completed, unexpired entries of its own site, newest first', async () => {
    const { siteId, site } = await freshSite();
    const other = await freshSite();
    const first = await entryOf(siteId, 'first', new Types.ObjectId().toString());
    const second = await entryOf(siteId, 'second', new Types.ObjectId().toString());
    expect((await site.trash.list({ limit: 10, offset: 0 }, new Date())).records).toEqual([]);
    await site.trash.complete(first.id);
    await site.trash.complete(second.id);
    const listed = await site.trash.list({ limit: 10, offset: 0 }, new Date());
    expect(listed.records.map((entry) => entry.collection)).toEqual(['second', 'first']);
    expect(listed.total).toBe(2);
    expect((await site.trash.list({ limit: 10, offset: 0 }, new Date(Date.now() + 31 * DAY))).records).toEqual([]);
    // Another site sees none of it and can claim none of it.
    expect((await other.site.trash.list({ limit: 10, offset: 0 }, new Date())).total).toBe(0);
    expect(await other.site.trash.claimForRestore(first.id, new Date())).toBeNull();
    expect(await site.trash.claimForRestore('not-an-id', new Date())).toBeNull();
  });

  it('gives an entry to a restore or to the purge, never both', async () => {
    const { siteId, site } = await freshSite();
    const entry = await entryOf(siteId, 'contested', new Types.ObjectId().toString());
    await site.trash.complete(entry.id);
    const late = new Date(Date.now() + 31 * DAY);
    // Expired: no new restore may take it, the purge may.
    expect(await site.trash.claimForRestore(entry.id, late)).toBeNull();
    const restoring = await entryOf(siteId, 'restoring', new Types.ObjectId().toString());
    await site.trash.complete(restoring.id);
    expect(await site.trash.claimForRestore(restoring.id, new Date())).toMatchObject({ restoring: true });
    // A restore under way (even one a crash interrupted) keeps the purge away, and may be resumed after expiry.
    expect(await site.trash.claimForPurge(restoring.id, late)).toBeNull();
    expect(await site.trash.claimForRestore(restoring.id, late)).not.toBeNull();
    expect(await site.trash.claimForPurge(entry.id, late)).not.toBeNull();
    expect(await site.trash.claimForRestore(entry.id, new Date())).toBeNull();
  });
});

describe('a crash half-way', () => {
  it('through a collection deletion: before the collection went, the entry is dropped; after, it is completed', async () => {
    const { siteId, site } = await freshSite();
    await collections.create(siteId, { name: 'kept', fields: [{ name: 'title', type: 'string', required: false }] });
    const kept = (await site.collections.findByName('kept'))!;
    await items.create(siteId, 'kept', { title: 'a' });
    // Died after writing the entry: the collection is still there, the entry must not claim it.
    await entryOf(siteId, 'kept', kept.id);
    await collections.create(siteId, { name: 'gone', fields: [{ name: 'title', type: 'string', required: false }] });
    const gone = (await site.collections.findByName('gone'))!;
    const item = await items.create(siteId, 'gone', { title: 'b' });
    // Died after the collection went, before the entry was completed.
    await entryOf(siteId, 'gone', gone.id);
    await site.collections.delete('gone', { id: gone.id });
    await site.collections.finishDelete(gone);

    await purgeAt(new Date());
    const listed = (await site.trash.list({ limit: 10, offset: 0 }, new Date())).records;
    expect(listed.map((entry) => [entry.collection, entry.items])).toEqual([['gone', 1]]);
    expect(await collections.get(siteId, 'kept')).toMatchObject({ name: 'kept' });
    await trash.restore(siteId, listed[0]!.id, actor);
    expect((await items.get(siteId, 'gone', item.id)).data).toEqual({ title: 'b' });
  });

  it('through a field deletion: values not moved yet are moved by the purge task, and come back on restore', async () => {
    const { siteId, site } = await freshSite();
    await collections.create(siteId, {
      name: 'cars',
      fields: [
        { name: 'model', type: 'string', required: false },
        { name: 'colour', type: 'string', required: false },
      ],
    });
    const cars = (await site.collections.findByName('cars'))!;
    const car = await items.create(siteId, 'cars', { model: 'A', colour: 'red' });
    // Died after the field left the schema, before its values moved.
    await entryOf(siteId, 'cars', cars.id, 'field');
    await site.collections.replaceFields('cars', cars.revision, [cars.fields[0]!], { action: 'deleted', field: 'colour' });
    await purgeAt(new Date());
    const [entry] = (await site.trash.list({ limit: 10, offset: 0 }, new Date())).records;
    expect(entry).toMatchObject({ kind: 'field', field: 'colour', items: 1 });
    expect((await items.get(siteId, 'cars', car.id)).data).toEqual({ model: 'A' });
    await trash.restore(siteId, entry!.id, actor);
    expect((await items.get(siteId, 'cars', car.id)).data).toEqual({ model: 'A', colour: 'red' });
  });

  it('through a restore: repeating it finishes the job once, whatever step it died after', async () => {
    const { siteId, site } = await freshSite();
    await collections.create(siteId, { name: 'notes', fields: [{ name: 'text', type: 'text', required: false }] });
    const note = await items.create(siteId, 'notes', { text: 'hi' });
    await collections.remove(siteId, 'notes', { actor });
    const [entry] = (await site.trash.list({ limit: 10, offset: 0 }, new Date())).records;
    // Died after the collection was back, before the entry went.
    await site.trash.claimForRestore(entry!.id, new Date());
    const definition = { id: entry!.collectionId, name: 'notes', fields: [{ name: 'text', type: 'text' as const, required: false }] };
    expect(await site.collections.restore(definition, [])).toBe('restored');
    expect(await site.collections.restore(definition, [])).toBe('already-restored');
    await expect(trash.restore(siteId, entry!.id, actor)).resolves.toMatchObject({ kind: 'collection', collection: 'notes' });
    expect((await items.get(siteId, 'notes', note.id)).data).toEqual({ text: 'hi' });
    expect((await site.trash.list({ limit: 10, offset: 0 }, new Date())).total).toBe(0);

    // A field restore that died after the field was back: the values still come back, no 409.
    await fields.add(siteId, 'notes', { name: 'mood', type: 'string', required: false });
    await items.update(siteId, 'notes', note.id, { mood: 'calm' });
    await fields.remove(siteId, 'notes', 'mood', { actor });
    const [fieldEntry] = (await site.trash.list({ limit: 10, offset: 0 }, new Date())).records;
    await site.trash.claimForRestore(fieldEntry!.id, new Date());
    const notes = (await site.collections.findByName('notes'))!;
    await site.collections.replaceFields(
      'notes',
      notes.revision,
      [...notes.fields, { name: 'mood', type: 'string', required: false }],
      {
        action: 'created',
        field: 'mood',
      },
      { restoredTrashId: fieldEntry!.id },
    );
    await expect(trash.restore(siteId, fieldEntry!.id, actor)).resolves.toMatchObject({ field: 'mood', items: 1 });
    expect((await items.get(siteId, 'notes', note.id)).data).toEqual({ text: 'hi', mood: 'calm' });
  });

  it('refuses a restore whose name is taken with a conflict, and leaves the entry restorable', async () => {
    const { siteId, site } = await freshSite();
    await collections.create(siteId, { name: 'dup' });
    await collections.remove(siteId, 'dup', { actor });
    await collections.create(siteId, { name: 'dup' });
    const [entry] = (await site.trash.list({ limit: 10, offset: 0 }, new Date())).records;
    await expect(trash.restore(siteId, entry!.id, actor)).rejects.toBeInstanceOf(ConflictError);
    expect((await site.trash.list({ limit: 10, offset: 0 }, new Date())).records[0]).toMatchObject({ id: entry!.id, restoring: false });
  });
});

describe('two servers restoring one entry at once', () => {
  /** A TrashService as a second server would run it: another holder, the same database. */
  const serverNamed = (processId: string, clock?: () => Date) =>
    new TrashService({
      stores: testStores.stores,
      fields,
      audit: (siteId) => testStores.aiStores.forSite(siteId).audit,
      processId,
      ...(clock ? { clock } : {}),
    });

  async function restoredAuditEntries(siteId: string, entryId: string): Promise<number> {
    const entries = await testStores.aiStores.forSite(siteId).audit.list({ limit: 100 });
    return entries.filter((entry) => entry.action === 'restored' && (entry.detail?.trash as { id?: string } | undefined)?.id === entryId)
      .length;
  }

  it('lets one claim the entry; the other is refused (409) or finds it gone, and one audit entry is written', async () => {
    const { siteId, site } = await freshSite();
    for (let round = 0; round < 3; round++) {
      const name = `both_${round}`;
      await collections.create(siteId, { name, fields: [{ name: 'text', type: 'text', required: false }] });
      await items.create(siteId, name, { text: 'hi' });
      await collections.remove(siteId, name, { actor });
      const entry = (await site.trash.list({ limit: 10, offset: 0 }, new Date())).records.find((record) => record.collection === name)!;
      const outcomes = await Promise.allSettled([
        serverNamed('server-a').restore(siteId, entry.id, actor),
        serverNamed('server-b').restore(siteId, entry.id, actor),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const refused = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ code: expect.stringMatching(/^(CONFLICT|FORBIDDEN)$/) });
      expect(await restoredAuditEntries(siteId, entry.id)).toBe(1);
    }
  });

  it('lets another server take over a restore whose holder died, once the lease is over', async () => {
    const { siteId, site } = await freshSite();
    await collections.create(siteId, { name: 'orphan', fields: [] });
    await collections.remove(siteId, 'orphan', { actor });
    const [entry] = (await site.trash.list({ limit: 10, offset: 0 }, new Date())).records;
    // server-a claimed it and died.
    expect(await site.trash.claimForRestore(entry!.id, new Date(), 'server-a')).not.toBeNull();
    await expect(serverNamed('server-b').restore(siteId, entry!.id, actor)).rejects.toBeInstanceOf(ConflictError);
    const later = new Date(Date.now() + RESTORE_LEASE_MS + 1_000);
    await expect(serverNamed('server-b', () => later).restore(siteId, entry!.id, actor)).resolves.toMatchObject({ collection: 'orphan' });
    expect(await restoredAuditEntries(siteId, entry!.id)).toBe(1);
  });
});
