// The CMS services as the Copilot's skills call them: site-scoped, request-agnostic, safe to retry, announcing changes.
import { ConflictError, NotFoundError } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStores, type Stores } from '../store/stores.js';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { CollectionsService } from './collections.service.js';
import { type ContentChanged, DomainEvents } from './domain-events.js';
import { FieldsService } from './fields.service.js';
import { ItemsService } from './items.service.js';

let database: TestDatabase;
let stores: Stores;
const events = new DomainEvents();
const announced: ContentChanged[] = [];
let collections: CollectionsService;
let fields: FieldsService;
let items: ItemsService;

beforeAll(async () => {
  database = await openTestDatabase('content_services');
  stores = await createStores(database.connection);
  events.on('content-changed', (event) => announced.push(event));
  collections = new CollectionsService(stores, events);
  fields = new FieldsService(stores, events);
  items = new ItemsService(stores, events);
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
  it('is announced once per change, with kind, action, collection and id or field', async () => {
    const siteId = await newSite();
    announced.length = 0;
    await collections.create(siteId, { name: 'notes', fields: [{ name: 'text', type: 'text', required: false }] });
    await fields.add(siteId, 'notes', { name: 'pinned', type: 'boolean', required: false });
    const item = await items.create(siteId, 'notes', { text: 'hi' });
    await items.update(siteId, 'notes', item.id, { pinned: true });
    await items.remove(siteId, 'notes', item.id);
    await fields.update(siteId, 'notes', 'pinned', { required: true });
    await fields.remove(siteId, 'notes', 'pinned');
    await collections.remove(siteId, 'notes');
    await expect(collections.remove(siteId, 'notes')).rejects.toBeInstanceOf(NotFoundError);
    expect(announced).toEqual([
      { siteId, kind: 'collection', action: 'created', collection: 'notes' },
      { siteId, kind: 'field', action: 'created', collection: 'notes', field: 'pinned' },
      { siteId, kind: 'item', action: 'created', collection: 'notes', id: item.id },
      { siteId, kind: 'item', action: 'updated', collection: 'notes', id: item.id },
      { siteId, kind: 'item', action: 'deleted', collection: 'notes', id: item.id },
      { siteId, kind: 'field', action: 'updated', collection: 'notes', field: 'pinned' },
      { siteId, kind: 'field', action: 'deleted', collection: 'notes', field: 'pinned' },
      { siteId, kind: 'collection', action: 'deleted', collection: 'notes' },
    ]);
  });

  it('is not announced for a refused write, and a throwing listener does not undo the change', async () => {
    const siteId = await newSite();
    const isolated = new DomainEvents(() => {});
    isolated.on('content-changed', () => {
      throw new Error('listener broke');
    });
    const guarded = new CollectionsService(stores, isolated);
    await expect(guarded.create(siteId, { name: 'kept' })).resolves.toMatchObject({ name: 'kept' });
    announced.length = 0;
    await expect(collections.create(siteId, { name: 'kept' })).rejects.toBeInstanceOf(ConflictError);
    expect(announced).toEqual([]);
  });
});
