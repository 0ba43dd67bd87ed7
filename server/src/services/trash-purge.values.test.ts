// The trash purge over the embedded Mongo: a purged field's values leave the item revisions and the
// approvals' previews too (only in its own site), and revisions past their retention go, except each
// live item's newest.
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { pendingApproval } from '../../test-support/ai-arbitraries.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createTestStores, type TestStores } from '../../test-support/test-stores.js';
import { CollectionsService } from './collections.service.js';
import { FieldsService } from './fields.service.js';
import { ItemsService } from './items.service.js';
import { TrashPurge } from './trash-purge.js';

let database: TestDatabase;
let testStores: TestStores;
let collections: CollectionsService;
let fields: FieldsService;
let items: ItemsService;

const DAY = 86_400_000;
const actor = { id: 'u1', name: 'Ada' };

beforeAll(async () => {
  database = await openTestDatabase('trash-purge-values');
  testStores = await createTestStores(database.connection);
  collections = new CollectionsService(testStores.stores);
  fields = new FieldsService(testStores.stores);
  items = new ItemsService(testStores.stores);
});
afterAll(async () => database?.close());

const purgeAt = (now: Date, revisionRetentionDays?: number) =>
  new TrashPurge({
    stores: testStores.stores,
    logger: createLogger({ level: 'silent' }),
    clock: () => now,
    approvals: (siteId) => testStores.aiStores.approvalStore(siteId),
    ...(revisionRetentionDays === undefined ? {} : { revisionRetentionDays }),
  }).purge();

/** A site with notes carrying a mood, one item's mood changed, and an approval previewing the moods. */
async function siteWithMoods() {
  const siteId = (await testStores.stores.sites.create(`Site ${new Types.ObjectId().toString()}`)).id;
  await collections.create(siteId, {
    name: 'notes',
    fields: [
      { name: 'title', type: 'string', required: false },
      { name: 'mood', type: 'string', required: false },
    ],
  });
  const collectionId = (await testStores.stores.forSite(siteId).collections.findByName('notes'))!.id;
  const note = await items.create(siteId, 'notes', { title: 'a', mood: 'grim' });
  await items.update(siteId, 'notes', note.id, { mood: 'calm' });
  const approval = await testStores.aiStores.forSite(siteId).approvals.insert(
    pendingApproval({
      skillName: 'deleteField',
      arguments: { collection: 'notes', field: 'mood' },
      target: { kind: 'field', collection: 'notes', collectionId, field: 'mood' },
      impact: { summary: 'Deletes the field mood of notes and its values in 1 item', values: ['calm'], restorableDays: 30 },
    }),
  );
  return { siteId, collectionId, note, approval };
}

const revisionData = async (siteId: string, collectionId: string, itemId: string) =>
  (await testStores.stores.forSite(siteId).revisions.list(collectionId, itemId)).map((revision) => revision.data);

describe('TrashPurge', () => {
  it("purging a deleted field removes its values from the item revisions and the approvals' impact, in that site only", async () => {
    const mine = await siteWithMoods();
    const other = await siteWithMoods();
    expect(await revisionData(mine.siteId, mine.collectionId, mine.note.id)).toEqual([
      { title: 'a', mood: 'calm' },
      { title: 'a', mood: 'grim' },
    ]);
    await fields.remove(mine.siteId, 'notes', 'mood', { actor });

    await purgeAt(new Date(Date.now() + 31 * DAY));
    const data = await revisionData(mine.siteId, mine.collectionId, mine.note.id);
    expect(data.length).toBeGreaterThanOrEqual(2);
    expect(data.every((revision) => !('mood' in revision))).toBe(true);
    expect(JSON.stringify(data)).not.toMatch(/grim|calm/);
    const approval = await testStores.aiStores.forSite(mine.siteId).approvals.get(mine.approval.id);
    expect(approval?.impact).toEqual({ summary: 'Deletes the field mood of notes and its values in 1 item', restorableDays: 30 });

    // The other site's field was never deleted: its history and its approval keep the values.
    expect(await revisionData(other.siteId, other.collectionId, other.note.id)).toEqual([
      { title: 'a', mood: 'calm' },
      { title: 'a', mood: 'grim' },
    ]);
    expect((await testStores.aiStores.forSite(other.siteId).approvals.get(other.approval.id))?.impact?.values).toEqual(['calm']);

    // Again (a purge that died half-way runs again): nothing changes, nothing fails.
    await purgeAt(new Date(Date.now() + 32 * DAY));
    expect(await revisionData(mine.siteId, mine.collectionId, mine.note.id)).toEqual(data);
  });

  it("purging a deleted collection removes its revisions and the values of its approvals' impact", async () => {
    const mine = await siteWithMoods();
    const other = await siteWithMoods();
    await collections.remove(mine.siteId, 'notes', { actor });

    await purgeAt(new Date(Date.now() + 31 * DAY));
    expect(await revisionData(mine.siteId, mine.collectionId, mine.note.id)).toEqual([]);
    expect((await testStores.aiStores.forSite(mine.siteId).approvals.get(mine.approval.id))?.impact).toEqual({
      summary: 'Deletes the field mood of notes and its values in 1 item',
      restorableDays: 30,
    });
    expect((await revisionData(other.siteId, other.collectionId, other.note.id)).length).toBe(2);
    expect((await testStores.aiStores.forSite(other.siteId).approvals.get(other.approval.id))?.impact?.values).toEqual(['calm']);
  });

  it("the revision retention deletes old revisions but keeps each live item's newest", async () => {
    const { siteId, collectionId, note } = await siteWithMoods();
    const gone = await items.create(siteId, 'notes', { title: 'b' });
    await items.remove(siteId, 'notes', gone.id);
    const before = await testStores.stores.forSite(siteId).revisions.list(collectionId, note.id);
    expect(before.length).toBe(2);
    expect((await testStores.stores.forSite(siteId).revisions.list(collectionId, gone.id)).length).toBeGreaterThan(0);

    // Within the retention: all stay.
    await purgeAt(new Date(Date.now() + 5 * DAY), 10);
    expect((await testStores.stores.forSite(siteId).revisions.list(collectionId, note.id)).length).toBe(2);
    // Past it: the live item keeps only its newest, the deleted item keeps none.
    await purgeAt(new Date(Date.now() + 11 * DAY), 10);
    expect(await testStores.stores.forSite(siteId).revisions.list(collectionId, note.id)).toEqual([before[0]]);
    expect(await testStores.stores.forSite(siteId).revisions.list(collectionId, gone.id)).toEqual([]);
    // 0 keeps them forever.
    await purgeAt(new Date(Date.now() + 1000 * DAY), 0);
    expect((await testStores.stores.forSite(siteId).revisions.list(collectionId, note.id)).length).toBe(1);
  });
});
