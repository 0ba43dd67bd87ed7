// The CMS services as the Copilot's skills call them: site-scoped, request-agnostic, safe to retry, each change owing a site event.
import { ConflictError, NotFoundError } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteEvent } from '@lumibase/shared';
import type { EventLog } from '../store/event-log.js';
import type { Stores } from '../store/stores.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createTestStores } from '../../test-support/test-stores.js';
import { CollectionsService } from './collections.service.js';
import { FieldsService } from './fields.service.js';
import { ItemsService } from './items.service.js';

let database: TestDatabase;
let stores: Stores;
let eventLog: EventLog;
let published: SiteEvent[];
let collections: CollectionsService;
let fields: FieldsService;
let items: ItemsService;

beforeAll(async () => {
  database = await openTestDatabase('content_services');
  ({ stores, eventLog, published } = await createTestStores(database.connection));
  collections = new CollectionsService(stores);
  fields = new FieldsService(stores);
  items = new ItemsService(stores);
});
afterAll(async () => database?.close());

const newSite = async () => (await stores.sites.create('Service site')).id;

describe('when a skill retries a write with the same operation id', () => {
  it('creates the collection once and answers the retry with it; another operation still gets a conflict', async () => {
    const siteId = await newSite();
    const input = { name: 'posts', fields: [{ name: 'title', type: 'string' as const, required: true }] };
    const first = await collections.create(siteId, input, { operationId: 'approval-1' });
    await expect(collections.create(siteId, input, { operationId: 'approval-1' })).resolves.toEqual(first);
    await expect(collections.create(siteId, input, { operationId: 'approval-2' })).rejects.toBeInstanceOf(ConflictError);
    await expect(collections.create(siteId, input)).rejects.toBeInstanceOf(ConflictError);
    expect((await collections.list(siteId, { limit: 10, offset: 0 })).total).toBe(1);
  });

  it('adds the field once; a different definition or no operation id is a conflict', async () => {
    const siteId = await newSite();
    await collections.create(siteId, { name: 'posts' });
    const field = { name: 'score', type: 'integer' as const, required: false };
    await fields.add(siteId, 'posts', field, { operationId: 'op' });
    await expect(fields.add(siteId, 'posts', field, { operationId: 'op' })).resolves.toEqual(field);
    await expect(fields.add(siteId, 'posts', { ...field, type: 'number' }, { operationId: 'op' })).rejects.toBeInstanceOf(ConflictError);
    await expect(fields.add(siteId, 'posts', field)).rejects.toBeInstanceOf(ConflictError);
    expect((await collections.get(siteId, 'posts')).fields).toEqual([field]);
  });

  it('creates the item once', async () => {
    const siteId = await newSite();
    await collections.create(siteId, { name: 'posts', fields: [{ name: 'title', type: 'string', required: true }] });
    const first = await items.create(siteId, 'posts', { title: 'once' }, { operationId: 'op-item' });
    await expect(items.create(siteId, 'posts', { title: 'once' }, { operationId: 'op-item' })).resolves.toEqual(first);
    expect((await items.list(siteId, 'posts', { limit: 10, offset: 0 })).total).toBe(1);
  });
});

describe('content-changed', () => {
  it('is in the site’s log once per change, numbered 1.., with kind, action, collection and id or field, and published in order', async () => {
    const siteId = await newSite();
    await collections.create(siteId, { name: 'notes', fields: [{ name: 'text', type: 'text', required: false }] });
    await fields.add(siteId, 'notes', { name: 'pinned', type: 'boolean', required: false });
    const item = await items.create(siteId, 'notes', { text: 'hi' });
    await items.update(siteId, 'notes', item.id, { pinned: true });
    await items.remove(siteId, 'notes', item.id);
    await fields.update(siteId, 'notes', 'pinned', { required: true });
    await fields.remove(siteId, 'notes', 'pinned');
    await collections.remove(siteId, 'notes');
    await expect(collections.remove(siteId, 'notes')).rejects.toBeInstanceOf(NotFoundError);
    // Both deletions went to the trash, which says so too.
    const { records: trashed } = await stores.forSite(siteId).trash.list({ limit: 10, offset: 0 }, new Date());
    const [collectionEntry, fieldEntry] = trashed.map((entry) => entry.id);
    const expected = [
      { kind: 'collection', action: 'created', collection: 'notes' },
      { kind: 'field', action: 'created', collection: 'notes', field: 'pinned' },
      { kind: 'item', action: 'created', collection: 'notes', id: item.id, revision: 1 },
      { kind: 'item', action: 'updated', collection: 'notes', id: item.id, revision: 2 },
      { kind: 'item', action: 'deleted', collection: 'notes', id: item.id, revision: 3 },
      { kind: 'field', action: 'updated', collection: 'notes', field: 'pinned' },
      { kind: 'field', action: 'deleted', collection: 'notes', field: 'pinned' },
      { kind: 'trash', action: 'created', collection: 'notes', field: 'pinned', id: fieldEntry },
      { kind: 'collection', action: 'deleted', collection: 'notes' },
      { kind: 'trash', action: 'created', collection: 'notes', id: collectionEntry },
    ].map((change, index) => ({ name: 'content-changed', payload: { seq: index + 1, siteId, ...change } }));
    expect(await eventLog.forSite(siteId).listAfter(0)).toEqual(expected);
    expect(published.filter((event) => event.payload.siteId === siteId)).toEqual(expected);
  });

  it('owes nothing for a refused write or a replayed operation, and leaves no tombstone behind', async () => {
    const siteId = await newSite();
    await collections.create(siteId, { name: 'kept' }, { operationId: 'op' });
    await collections.create(siteId, { name: 'kept' }, { operationId: 'op' });
    await expect(collections.create(siteId, { name: 'kept' })).rejects.toBeInstanceOf(ConflictError);
    expect((await eventLog.forSite(siteId).listAfter(0)).length).toBe(1);
    await collections.remove(siteId, 'kept');
    expect(await stores.models.collections.countDocuments({ name: 'kept' })).toBe(0);
    await expect(collections.create(siteId, { name: 'kept' })).resolves.toMatchObject({ name: 'kept' });
  });
});
