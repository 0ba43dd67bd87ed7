// The executors over the real CMS services and stores: what each skill does, and that a second run of one operation is a no-op.
import { randomUUID } from 'node:crypto';
import { type Capability, type Field, NotFoundError, SKILL_NAMES } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeferredWork, SkillExecutionContext, SkillExecutors } from './skill-executors.js';
import { startExecution } from '../approvals/approval-operations.js';
import { runApproval } from '../approvals/run-approval.js';
import { pendingApproval } from '../../test-support/ai-arbitraries.js';
import { CollectionsService } from '../services/collections.service.js';
import { DomainEvents } from '../services/domain-events.js';
import { FieldsService } from '../services/fields.service.js';
import { ItemsService } from '../services/items.service.js';
import { MembersService } from '../services/members.service.js';
import { SiteAccessService } from '../services/site-access.service.js';
import type { AiStores } from '../store/ai/ai-stores.js';
import type { Stores } from '../store/stores.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createTestStores } from '../../test-support/test-stores.js';
import { createTestSearch, type TestSearch } from '../../test-support/test-search.js';
import { createSkillExecutors } from './create-skill-executors.js';

let database: TestDatabase;
let stores: Stores;
let aiStores: AiStores;
let services: {
  collections: CollectionsService;
  fields: FieldsService;
  items: ItemsService;
  members: MembersService;
  access: SiteAccessService;
};
let executors: SkillExecutors;
let search: TestSearch;

beforeAll(async () => {
  database = await openTestDatabase('skill_executors');
  ({ stores, aiStores } = await createTestStores(database.connection));
  services = {
    collections: new CollectionsService(stores),
    fields: new FieldsService(stores),
    items: new ItemsService(stores),
    members: new MembersService(stores, new DomainEvents()),
    access: new SiteAccessService(stores),
  };
  search = await createTestSearch(database.connection, stores);
  executors = createSkillExecutors({ ...services, operations: aiStores, search: search.search, embedder: search.embedder });
});
afterAll(async () => database?.close());

const actor = { id: 'u-ada', name: 'Ada' };
const TITLE: Field = { name: 'title', type: 'string', required: true };

async function newSite(): Promise<string> {
  return (await stores.sites.create(`Skills ${randomUUID().slice(0, 8)}`)).id;
}

/** A site with a `posts` collection (a required title) and `count` items in it. */
async function siteWithPosts(count = 0): Promise<{ siteId: string; itemIds: string[] }> {
  const siteId = await newSite();
  await services.collections.create(siteId, { name: 'posts', fields: [TITLE, { name: 'body', type: 'text', required: false }] });
  const itemIds: string[] = [];
  for (let index = 0; index < count; index += 1)
    itemIds.push((await services.items.create(siteId, 'posts', { title: `Post ${index}` })).id);
  return { siteId, itemIds };
}

function contextIn(siteId: string, operationId = randomUUID()): SkillExecutionContext {
  return { siteId, actor, operationId };
}

const itemCount = async (siteId: string, collection = 'posts') =>
  (await services.items.list(siteId, collection, { limit: 1, offset: 0 })).total;
const fieldsOf = async (siteId: string, collection = 'posts') => (await services.collections.get(siteId, collection)).fields;

/** Runs the executor twice under one operation id and returns both results. */
async function twice<T>(run: () => Promise<T>): Promise<[T, T]> {
  const first = await run();
  const second = await run();
  return [first, second];
}

describe('the executors map', () => {
  it('has an executor for every skill of the catalog', () => {
    expect(Object.keys(executors).sort()).toEqual([...SKILL_NAMES].sort());
  });
});

describe('each executor, run twice with the same operation id, has the effect of one run', () => {
  it('createCollection creates one collection and answers the re-run with it', async () => {
    const siteId = await newSite();
    const context = contextIn(siteId);
    const args = { name: 'articles', label: 'Articles', fields: [TITLE] };
    const [first, second] = await twice(() => executors.createCollection(args, context));
    expect(first).toEqual({ name: 'articles', label: 'Articles', fields: [TITLE] });
    expect(second).toEqual(first);
    expect((await services.collections.listAll(siteId)).map((collection) => collection.name)).toEqual(['articles']);
    // Another operation asking for the same name is a conflict, not a silent success.
    await expect(executors.createCollection(args, contextIn(siteId))).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('deleteCollection deletes once; the re-run succeeds instead of finding nothing', async () => {
    const { siteId } = await siteWithPosts(2);
    const context = contextIn(siteId);
    const [first, second] = await twice(() => executors.deleteCollection({ name: 'posts' }, context));
    expect(first).toEqual({ collection: 'posts', deleted: true });
    expect(second).toEqual(first);
    expect(await services.collections.listAll(siteId)).toEqual([]);
    await expect(executors.deleteCollection({ name: 'posts' }, contextIn(siteId))).rejects.toBeInstanceOf(NotFoundError);
  });

  it('createField adds the field once', async () => {
    const { siteId } = await siteWithPosts();
    const context = contextIn(siteId);
    const field: Field = { name: 'score', type: 'integer', required: false };
    const [first, second] = await twice(() => executors.createField({ collection: 'posts', field }, context));
    expect(first).toEqual({ collection: 'posts', field });
    expect(second).toEqual(first);
    expect((await fieldsOf(siteId)).filter((candidate) => candidate.name === 'score')).toEqual([field]);
  });

  it('updateField renames once; the re-run neither fails on the old name nor renames again', async () => {
    const { siteId } = await siteWithPosts(1);
    const context = contextIn(siteId);
    const args = { collection: 'posts', field: 'body', changes: { name: 'summary', required: false } };
    const [first, second] = await twice(() => executors.updateField(args, context));
    expect(first).toEqual({ collection: 'posts', field: { name: 'summary', type: 'text', required: false } });
    expect(second).toEqual(first);
    expect((await fieldsOf(siteId)).map((field) => field.name)).toEqual(['title', 'summary']);
  });

  it('deleteField removes the field once and the re-run succeeds', async () => {
    const { siteId } = await siteWithPosts(1);
    const context = contextIn(siteId);
    const [first, second] = await twice(() => executors.deleteField({ collection: 'posts', field: 'body' }, context));
    expect(first).toEqual({ collection: 'posts', field: 'body', deleted: true });
    expect(second).toEqual(first);
    expect((await fieldsOf(siteId)).map((field) => field.name)).toEqual(['title']);
  });

  it('createItem creates one item and answers the re-run with the same item', async () => {
    const { siteId } = await siteWithPosts();
    const context = contextIn(siteId);
    const [first, second] = await twice(() => executors.createItem({ collection: 'posts', data: { title: 'Once' } }, context));
    expect(first).toMatchObject({ collection: 'posts', data: { title: 'Once' } });
    expect(second).toEqual(first);
    expect(await itemCount(siteId)).toBe(1);
    // A different operation is a different item.
    await executors.createItem({ collection: 'posts', data: { title: 'Once' } }, contextIn(siteId));
    expect(await itemCount(siteId)).toBe(2);
  });

  it('updateItem merges once, with the same result on the re-run', async () => {
    const { siteId, itemIds } = await siteWithPosts(1);
    const context = contextIn(siteId);
    const [first, second] = await twice(() =>
      executors.updateItem({ collection: 'posts', id: itemIds[0]!, data: { body: 'More' } }, context),
    );
    expect(first).toMatchObject({ id: itemIds[0], data: { title: 'Post 0', body: 'More' } });
    expect(second).toEqual(first);
  });

  it('deleteItem deletes once; the re-run of the same operation succeeds', async () => {
    const { siteId, itemIds } = await siteWithPosts(2);
    const context = contextIn(siteId);
    const [first, second] = await twice(() => executors.deleteItem({ collection: 'posts', id: itemIds[0]! }, context));
    expect(first).toEqual({ collection: 'posts', id: itemIds[0], deleted: true });
    expect(second).toEqual(first);
    expect(await itemCount(siteId)).toBe(1);
    // Deleting it again under another operation is an honest "not found", never a silent success.
    await expect(executors.deleteItem({ collection: 'posts', id: itemIds[0]! }, contextIn(siteId))).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: `No item "${itemIds[0]}" in collection "posts" of this site`,
    });
  });

  /** A user holding `role` (and `extras`) in `siteId`, as the actor a skill runs for. */
  async function memberActor(siteId: string, role: 'admin' | 'editor', extras: Capability[] = []) {
    const user = await stores.users.create({
      email: `${randomUUID()}@example.test`,
      name: 'Actor',
      passwordHash: 'x',
      isSuperadmin: false,
    });
    await stores.forSite(siteId).members.put(user.id, role, extras);
    return { id: user.id, name: user.name };
  }

  it('deleteUser removes the membership in the current site only, once', async () => {
    const siteId = await newSite();
    const otherSiteId = await newSite();
    const user = await stores.users.create({ email: `${randomUUID()}@example.test`, name: 'Bob', passwordHash: 'x', isSuperadmin: false });
    await stores.forSite(siteId).members.put(user.id, 'editor', []);
    await stores.forSite(otherSiteId).members.put(user.id, 'viewer', []);
    const context = { ...contextIn(siteId), actor: await memberActor(siteId, 'admin') };
    const [first, second] = await twice(() => executors.deleteUser({ userId: user.id }, context));
    expect(first).toEqual({ userId: user.id, removedFromSite: true });
    expect(second).toEqual(first);
    expect(await stores.forSite(siteId).members.get(user.id)).toBeNull();
    expect(await stores.forSite(otherSiteId).members.get(user.id)).toMatchObject({ role: 'viewer' });
    expect(await stores.users.findById(user.id)).toMatchObject({ id: user.id });
    await expect(executors.deleteUser({ userId: user.id }, { ...context, operationId: randomUUID() })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('deleteUser runs under the members rule: an actor with users:write cannot remove an admin', async () => {
    const siteId = await newSite();
    const admin = await memberActor(siteId, 'admin');
    const context = { ...contextIn(siteId), actor: await memberActor(siteId, 'editor', ['users:write', 'approvals:decide']) };
    await expect(executors.deleteUser({ userId: admin.id }, context)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      reason: 'member-exceeds-own',
    });
    expect(await stores.forSite(siteId).members.get(admin.id)).toMatchObject({ role: 'admin' });
  });

  it('the reads are plain reads', async () => {
    const { siteId, itemIds } = await siteWithPosts(3);
    const context = contextIn(siteId);
    expect(await executors.listCollections({}, context)).toEqual({ collections: [await services.collections.get(siteId, 'posts')] });
    const listed = await executors.listItems({ collection: 'posts', limit: 2, offset: 0 }, context);
    expect(listed).toMatchObject({ collection: 'posts', total: 3, limit: 2, offset: 0 });
    expect((listed as { items: { id: string }[] }).items.map((item) => item.id)).toEqual([itemIds[2], itemIds[1]]);
  });
});

describe('when an earlier run of the operation started and never recorded its end', () => {
  async function claimWithoutFinishing(context: SkillExecutionContext, skillName: string): Promise<void> {
    const claim = await aiStores.forSite(context.siteId).operations.claim({ operationId: context.operationId, skillName, at: new Date() });
    expect(claim).toEqual({ state: 'new' });
  }

  it('deleteItem finds the item gone and takes it as that run’s success', async () => {
    const { siteId, itemIds } = await siteWithPosts(1);
    const context = contextIn(siteId);
    await claimWithoutFinishing(context, 'deleteItem');
    await services.items.remove(siteId, 'posts', itemIds[0]!); // the crashed run's effect
    await expect(executors.deleteItem({ collection: 'posts', id: itemIds[0]! }, context)).resolves.toMatchObject({ deleted: true });
  });

  it('createItem finds the item that run created, by its operation id (it keeps no ledger entry: the item is the record)', async () => {
    const { siteId } = await siteWithPosts();
    const context = contextIn(siteId);
    const created = await services.items.create(siteId, 'posts', { title: 'Crashed' }, { operationId: context.operationId });
    await expect(executors.createItem({ collection: 'posts', data: { title: 'Crashed' } }, context)).resolves.toEqual(created);
    expect(await itemCount(siteId)).toBe(1);
  });

  it('deleteCollection and deleteField find their target gone and succeed', async () => {
    const { siteId } = await siteWithPosts();
    const fieldContext = contextIn(siteId);
    await claimWithoutFinishing(fieldContext, 'deleteField');
    await services.fields.remove(siteId, 'posts', 'body');
    await expect(executors.deleteField({ collection: 'posts', field: 'body' }, fieldContext)).resolves.toMatchObject({ deleted: true });
    const collectionContext = contextIn(siteId);
    await claimWithoutFinishing(collectionContext, 'deleteCollection');
    await services.collections.remove(siteId, 'posts');
    await expect(executors.deleteCollection({ name: 'posts' }, collectionContext)).resolves.toMatchObject({ deleted: true });
  });

  it('updateField finds the rename made and succeeds', async () => {
    const { siteId } = await siteWithPosts();
    const context = contextIn(siteId);
    await claimWithoutFinishing(context, 'updateField');
    await services.fields.update(siteId, 'posts', 'body', { name: 'summary' });
    await expect(executors.updateField({ collection: 'posts', field: 'body', changes: { name: 'summary' } }, context)).resolves.toEqual({
      collection: 'posts',
      field: { name: 'summary', type: 'text', required: false },
    });
  });
});

describe('a run that hands its bookkeeping to its caller (context.deferred), as an approval being settled does', () => {
  it('leaves the ledger completion in the list instead of awaiting it; once it lands, the operation is complete with the result', async () => {
    const siteId = await newSite();
    const deferred: DeferredWork[] = [];
    const context: SkillExecutionContext = { siteId, actor, operationId: randomUUID(), deferred };
    const created = await executors.createCollection({ name: 'later', fields: [] }, context);
    expect(deferred).toHaveLength(1);
    expect(await deferred[0]).toEqual({ status: 'fulfilled', value: undefined });
    expect(
      await aiStores.forSite(siteId).operations.claim({ operationId: context.operationId, skillName: 'createCollection', at: new Date() }),
    ).toEqual({
      state: 'completed',
      result: created,
    });
  });

  it('runApproval settles the approval, then awaits the completion it was handed: a completion that fails fails the run, settled', async () => {
    const siteId = await newSite();
    const { approvals } = aiStores.forSite(siteId);
    const executing = async (name: string) => {
      const pending = await approvals.insert(pendingApproval({ skillName: 'createCollection', arguments: { name, fields: [] } }));
      return (await startExecution(approvals, pending, { actor, at: new Date() }))!;
    };
    const landed = await executing('settled');
    expect(await runApproval({ approval: landed, approvals, executors })).toMatchObject({
      status: 'approved',
      result: { name: 'settled' },
    });
    expect(
      await aiStores.forSite(siteId).operations.claim({ operationId: landed.id, skillName: 'createCollection', at: new Date() }),
    ).toMatchObject({ state: 'completed', result: { name: 'settled' } });

    // The real ledger, except that marking an operation complete fails (MongoDB gone between the two writes).
    const lost = new Error('the ledger completion was lost');
    const failingLedger = createSkillExecutors({
      ...services,
      operations: {
        forSite: (id) => {
          const ledger = aiStores.forSite(id).operations;
          return {
            operations: {
              siteId: ledger.siteId,
              claim: (operation) => ledger.claim(operation),
              release: (operationId) => ledger.release(operationId),
              claimed: (operationId) => ledger.claimed(operationId),
              complete: async () => {
                throw lost;
              },
            },
          };
        },
      },
      search: search.search,
      embedder: search.embedder,
    });
    const unlucky = await executing('unlucky');
    await expect(runApproval({ approval: unlucky, approvals, executors: failingLedger })).rejects.toBe(lost);
    // Settled before the completion was awaited: a retry of its job finds it approved and runs nothing.
    expect(await approvals.get(unlucky.id)).toMatchObject({ status: 'approved', result: { name: 'unlucky' } });
  });
});

describe('when a run is refused', () => {
  it('forgets the operation, so a retry after fixing the cause is a fresh attempt', async () => {
    const siteId = await newSite();
    const context = contextIn(siteId);
    await expect(executors.deleteCollection({ name: 'drafts' }, context)).rejects.toBeInstanceOf(NotFoundError);
    await services.collections.create(siteId, { name: 'drafts' });
    await expect(executors.deleteCollection({ name: 'drafts' }, context)).resolves.toEqual({ collection: 'drafts', deleted: true });
    expect(await services.collections.listAll(siteId)).toEqual([]);
  });

  it('fails with the service’s reasons: unknown collection, invalid data', async () => {
    const { siteId } = await siteWithPosts();
    await expect(executors.listItems({ collection: 'nope' }, contextIn(siteId))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(executors.createItem({ collection: 'posts', data: { colour: 'red' } }, contextIn(siteId))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect(await itemCount(siteId)).toBe(0);
  });
});

describe('the RAG skills', () => {
  it('under echo answer from retrieval alone: a new field for the collection, a value that fits the field', async () => {
    const { siteId, itemIds } = await siteWithPosts(0);
    const first = await services.items.create(siteId, 'posts', {
      title: 'Sourdough basics',
      body: 'Feed the starter with flour and water every day. Keep it warm. Bake when it doubles.',
    });
    await services.items.create(siteId, 'posts', { title: 'Rye bread', body: 'Rye flour makes a dense, sour loaf.' });
    itemIds.push(first.id);
    await search.indexer.indexSite(siteId);
    const context = contextIn(siteId);
    const suggested = (await executors.aiSuggestField({ collection: 'posts', description: 'a short teaser shown in lists' }, context)) as {
      suggestion: Field;
      rationale: string;
      similar: unknown[];
    };
    expect(['title', 'body']).not.toContain(suggested.suggestion.name);
    expect(suggested.suggestion.name).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
    expect(suggested.rationale.length).toBeGreaterThan(0);
    expect(await executors.aiSuggestField({ collection: 'posts', description: 'a short teaser shown in lists' }, context)).toEqual(
      suggested,
    );
    const assisted = (await executors.aiContentAssist(
      { collection: 'posts', field: 'body', instruction: 'summarise it', itemId: first.id },
      context,
    )) as { field: string; value: unknown; sources: { id: string }[] };
    expect(assisted.field).toBe('body');
    expect(typeof assisted.value).toBe('string');
    expect(String(assisted.value)).toContain('starter');
    expect(assisted.sources.map((source) => source.id)).toContain(first.id);
    // Nothing was written.
    expect((await services.items.get(siteId, 'posts', first.id)).data.body).toBe(
      'Feed the starter with flour and water every day. Keep it warm. Bake when it doubles.',
    );
  });

  it('still say when the collection, field or item asked about does not exist', async () => {
    const { siteId } = await siteWithPosts();
    const context = contextIn(siteId);
    await expect(executors.aiSuggestField({ collection: 'nope', description: 'x' }, context)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(executors.aiContentAssist({ collection: 'posts', field: 'nope', instruction: 'x' }, context)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      executors.aiContentAssist({ collection: 'posts', field: 'body', instruction: 'x', itemId: 'ffffffffffffffffffffffff' }, context),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
