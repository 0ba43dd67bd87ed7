// createItem keyed by its operation id (issue 33), over the real services and the embedded MongoDB, with the commands
// counted on the wire: a first run is one insert, no ledger; a repeat of the operation (a redelivered job, a resumed
// plan step) answers with the item it created, even once that item has left the collection; a refusal writes nothing.
import { randomUUID } from 'node:crypto';
import { CAPABILITIES, type Field } from '@lumibase/shared';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SkillExecutionContext, SkillExecutors } from './skill-executors.js';
import { AISecureHarness } from '../gate/ai-secure-harness.js';
import { CollectionsService } from '../services/collections.service.js';
import { DomainEvents } from '../services/domain-events.js';
import { FieldsService } from '../services/fields.service.js';
import { ItemsService } from '../services/items.service.js';
import { MembersService } from '../services/members.service.js';
import { SiteAccessService } from '../services/site-access.service.js';
import { TrashService } from '../services/trash.service.js';
import type { AiStores } from '../store/ai/ai-stores.js';
import type { Stores } from '../store/stores.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createTestStores } from '../../test-support/test-stores.js';
import { openWatchedConnection, type WatchedConnection } from '../../test-support/watched-connection.js';
import { NO_TARGETS } from './approval-targets.js';
import { createSkillExecutors } from './create-skill-executors.js';

let database: TestDatabase;
let watched: WatchedConnection;
let stores: Stores;
let aiStores: AiStores;
let items: ItemsService;
let collections: CollectionsService;
let trash: TrashService;
let executors: SkillExecutors;

beforeAll(async () => {
  database = await openTestDatabase('create_item');
  // Everything runs over the watched connection, so that what one execution sends can be read back.
  watched = await openWatchedConnection(database);
  ({ stores, aiStores } = await createTestStores(watched.connection));
  collections = new CollectionsService(stores);
  const fields = new FieldsService(stores);
  items = new ItemsService(stores);
  trash = new TrashService({ stores, fields, audit: (siteId) => aiStores.forSite(siteId).audit });
  executors = createSkillExecutors({
    collections,
    fields,
    items,
    members: new MembersService(stores, new DomainEvents()),
    access: new SiteAccessService(stores),
    operations: aiStores,
  });
});
afterAll(async () => {
  await watched?.close();
  await database?.close();
});

const actor = { id: 'u-ada', name: 'Ada' };
const TITLE: Field = { name: 'title', type: 'string', required: true };

async function siteWithPosts(): Promise<string> {
  const siteId = (await stores.sites.create(`Create item ${randomUUID().slice(0, 8)}`)).id;
  await collections.create(siteId, { name: 'posts', fields: [TITLE] });
  // The collection's event is relayed on after its creation answered: done before a test counts commands.
  await stores.relay.idle();
  return siteId;
}

/** The first run of an operation as the gate and a first delivery know it; `redelivered` drops that knowledge. */
const firstRun = (siteId: string, operationId = randomUUID()): SkillExecutionContext => ({ siteId, actor, operationId, firstRun: true });
const redelivered = ({ firstRun: _first, ...context }: SkillExecutionContext): SkillExecutionContext => context;

const create = (context: SkillExecutionContext, title = 'Hello') =>
  executors.createItem({ collection: 'posts', data: { title } }, context) as Promise<{ id: string; collection: string }>;

/** Every document of the site's items collection carrying no tombstone, whatever its collection. */
const liveItems = (siteId: string) => items.list(siteId, 'posts', { limit: 100, offset: 0 });
const ledgerEntries = (context: SkillExecutionContext) =>
  watched.connection.collection('ai_operations').countDocuments({ operationId: context.operationId });

describe('createItem run twice under one operation id', () => {
  it('creates one item, answers both runs with it, and keeps nothing in the ledger', async () => {
    const siteId = await siteWithPosts();
    const context = firstRun(siteId);
    const first = await create(context);
    const second = await create(redelivered(context));
    expect(first).toMatchObject({ collection: 'posts', data: { title: 'Hello' } });
    expect(second).toEqual(first);
    // Run again as if first (a gate or a worker wrong about it): the unique index still answers with the same item.
    expect(await create(context)).toEqual(first);
    expect((await liveItems(siteId)).total).toBe(1);
    expect(await ledgerEntries(context)).toBe(0);
  });
});

describe('a redelivered createItem whose item has left the collection since', () => {
  it('trashed: answers with the item it created and creates none; restored: still that one item', async () => {
    const siteId = await siteWithPosts();
    const context = firstRun(siteId);
    const first = await create(context);
    await items.remove(siteId, 'posts', first.id, { actor });

    expect(await create(redelivered(context))).toEqual(first);
    expect((await liveItems(siteId)).total).toBe(0);

    const entry = await stores.forSite(siteId).trash.findLatest({ kind: 'item', collection: 'posts', itemId: first.id });
    await trash.restore(siteId, entry!.id, actor);
    expect(await create(redelivered(context))).toMatchObject({ id: first.id, data: { title: 'Hello' } });
    expect((await liveItems(siteId)).records.map((item) => item.id)).toEqual([first.id]);
  });

  it('deleted without the trash (its tombstone relayed away): answers with that item and creates none', async () => {
    const siteId = await siteWithPosts();
    const context = firstRun(siteId);
    const first = await create(context);
    const site = stores.forSite(siteId);
    const record = await site.collections.findByName('posts');
    expect(await site.items.delete(record!, first.id)).toBe(true);
    await site.items.settle(first.id);
    expect(await watched.connection.collection('cms_items').countDocuments({ operationId: context.operationId })).toBe(0);

    expect(await create(redelivered(context))).toEqual(first);
    expect((await liveItems(siteId)).total).toBe(0);
  });

  it('in a collection trashed since: answers with the item it created instead of refusing', async () => {
    const siteId = await siteWithPosts();
    const context = firstRun(siteId);
    const first = await create(context);
    await collections.remove(siteId, 'posts');
    expect(await create(redelivered(context))).toEqual(first);
  });
});

describe('a refused createItem', () => {
  it('is refused every time, first run or not, and writes nothing', async () => {
    const siteId = await siteWithPosts();
    const unknown = firstRun(siteId);
    const invalid = firstRun(siteId);
    watched.take();
    for (const context of [unknown, redelivered(unknown)])
      await expect(executors.createItem({ collection: 'drafts', data: { title: 'x' } }, context)).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    for (const context of [invalid, redelivered(invalid)])
      await expect(executors.createItem({ collection: 'posts', data: { colour: 'red' } }, context)).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
    const writes = watched.take().filter((command) => /^(insert|update|delete|findAndModify) /.test(command));
    expect(writes).toEqual([]);
    expect((await liveItems(siteId)).total).toBe(0);

    // Fixed (the collection now exists), the same operation is a fresh attempt that creates its item.
    await collections.create(siteId, { name: 'drafts', fields: [TITLE] });
    await expect(executors.createItem({ collection: 'drafts', data: { title: 'x' } }, redelivered(unknown))).resolves.toMatchObject({
      collection: 'drafts',
    });
  });
});

describe('the round trips of one createItem', () => {
  /** The commands one run sends, as `command collection`, with those of its events relayed after it answered. */
  async function commandsOf(run: () => Promise<unknown>): Promise<string[]> {
    await stores.relay.idle();
    watched.take();
    await run();
    await stores.relay.idle();
    return watched.take();
  }

  it('on a first run: one insert of the item, no ledger command, no read of the item by its operation id', async () => {
    const siteId = await siteWithPosts();
    await create(firstRun(siteId)); // warm: the collection's indexes, the site's event head
    let created: unknown;
    const commands = await commandsOf(async () => {
      created = await create(firstRun(siteId));
    });
    expect(commands.filter((command) => command.endsWith(' ai_operations'))).toEqual([]);
    // The one clearing write took both: nothing stays owed on the item, and its first revision is stored.
    const id = new Types.ObjectId((created as { id: string }).id);
    const stored = await watched.connection.collection('cms_items').findOne({ _id: id });
    expect({ outbox: stored?.outbox ?? [], owedRevisions: stored?.owedRevisions ?? [] }).toEqual({ outbox: [], owedRevisions: [] });
    expect(await watched.connection.collection('item_revisions').countDocuments({ itemId: id })).toBe(1);
    const items = commands.filter((command) => command.endsWith(' cms_items'));
    expect(items[0]).toBe('insert cms_items');
    expect(items.filter((command) => command === 'insert cms_items')).toHaveLength(1);
    expect(commands.slice(0, commands.indexOf('insert cms_items'))).toEqual(['find cms_collections']);
    // The relay works from the item as inserted: its first revision and its event, with no read of it back, and one
    // write clearing both.
    expect(commands).toEqual([
      'find cms_collections',
      'insert cms_items',
      'insert item_revisions',
      'insert site_events',
      'findAndModify site_event_heads',
      'update cms_items',
    ]);
  });

  it('through the gate, whose operation ids are new: the same', async () => {
    const siteId = await siteWithPosts();
    const harness = new AISecureHarness({ stores: aiStores, executors, targets: NO_TARGETS });
    const context = { siteId, actor: { ...actor, capabilities: [...CAPABILITIES], isSuperadmin: false }, message: 'add a post' };
    const call = { name: 'createItem', arguments: { collection: 'posts', data: { title: 'Gated' } } };
    expect(await harness.execute(context, call)).toMatchObject({ status: 'executed' });
    const commands = await commandsOf(() => harness.execute(context, call));
    expect(commands.filter((command) => command.endsWith(' ai_operations'))).toEqual([]);
    // Nothing looks for an earlier run of the operation before the insert: not the item, not its first revision.
    const beforeInsert = commands.slice(0, commands.indexOf('insert cms_items'));
    expect(beforeInsert.filter((command) => /cms_items|item_revisions/.test(command))).toEqual([]);
    expect(commands.filter((command) => command === 'insert cms_items')).toHaveLength(1);
    expect(commands.filter((command) => command === 'find cms_items')).toEqual([]);
  });

  it('on a repeat of a done operation: one read, no write', async () => {
    const siteId = await siteWithPosts();
    const context = firstRun(siteId);
    await create(context);
    const commands = await commandsOf(() => create(redelivered(context)));
    expect(commands).toEqual(['find item_revisions']);
  });
});
