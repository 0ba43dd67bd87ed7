// A plan's roll-back puts the site back exactly (docs/API.md, "Runs and plans"): what its done steps created is removed for
// good (no trash entry), what they updated or deleted comes back from the item revisions and the trash; a step that
// cannot be undone may only come last; and a plan approved again after a roll-back (and an edit) runs each step once.
import type { Field } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPlanFixture, type PlanFixture } from '../../test-support/plan-fixture.js';
import { StoreApprovalTargets } from '../skills/store-approval-targets.js';
import { ApprovalEditor } from './edit-approval.js';

let plans: PlanFixture;
beforeAll(async () => {
  plans = await openPlanFixture('plan_undo');
});
afterAll(async () => plans?.close());

const TITLE: Field = { name: 'title', type: 'string', required: true };
const BODY: Field = { name: 'body', type: 'text', required: false };
const EDITOR = { id: 'u-cy', name: 'Cy', capabilities: ['approvals:decide', 'schema:write', 'content:write'], isSuperadmin: false };

/** A site with `posts` (title, body) holding two items, and `tags` holding one. */
async function site() {
  const siteId = await plans.newSite();
  await plans.collections.create(siteId, { name: 'posts', fields: [TITLE, BODY] });
  await plans.collections.create(siteId, { name: 'tags', fields: [TITLE] });
  const first = await plans.items.create(siteId, 'posts', { title: 'First', body: 'one' });
  const second = await plans.items.create(siteId, 'posts', { title: 'Second', body: 'two' });
  await plans.items.create(siteId, 'tags', { title: 'news' });
  return { siteId, first: first.id, second: second.id };
}

const statuses = (approval: { steps: { status: string }[] }) => approval.steps.map((step) => step.status);

describe('a plan rolled back', () => {
  it('removes what it created for good and puts back what it updated and deleted (items, fields, values, trash)', async () => {
    const { siteId, first, second } = await site();
    const before = await plans.snapshot(siteId);
    const approval = await plans.propose(siteId, [
      { skillName: 'createCollection', arguments: { name: 'events' } },
      { skillName: 'createField', arguments: { collection: 'events', field: TITLE } },
      { skillName: 'createItem', arguments: { collection: 'events', data: { title: 'Launch' } } },
      { skillName: 'createField', arguments: { collection: 'posts', field: { name: 'views', type: 'integer' } } },
      { skillName: 'updateItem', arguments: { collection: 'posts', id: first, data: { title: 'First, edited', views: 3, body: null } } },
      { skillName: 'deleteItem', arguments: { collection: 'posts', id: second } },
      { skillName: 'deleteField', arguments: { collection: 'posts', field: 'body' } },
      { skillName: 'createItem', arguments: { collection: 'posts', data: { title: 'Third' } } },
    ]);
    const settled = await plans.approveAndRun(siteId, approval.id, { failAt: 8 });
    expect(settled.status).toBe('pending');
    expect(settled.lastError).toMatch(/^step 8 \(“Create an item”\) failed: /);
    expect(statuses(settled)).toEqual(['undone', 'undone', 'undone', 'undone', 'undone', 'undone', 'undone', 'failed']);
    // Exactly as before: the items' data, the fields, and not one trash entry left behind.
    expect(await plans.snapshot(siteId)).toEqual(before);
    const history = await plans.revisions.list(siteId, 'posts', first);
    expect(history[0]!.data).toEqual({ title: 'First', body: 'one' });
    const audit = await plans.aiStores.forSite(siteId).audit.verify();
    expect(audit.valid).toBe(true);
  });

  it('puts back a deleted collection with its items', async () => {
    const { siteId } = await site();
    const before = await plans.snapshot(siteId);
    const approval = await plans.propose(siteId, [
      { skillName: 'deleteCollection', arguments: { name: 'tags' } },
      { skillName: 'createItem', arguments: { collection: 'posts', data: { title: 'Tags are gone' } } },
    ]);
    const settled = await plans.approveAndRun(siteId, approval.id, { failAt: 2 });
    expect(statuses(settled)).toEqual(['undone', 'failed']);
    expect(await plans.snapshot(siteId)).toEqual(before);
  });

  it('applied in full when no step fails: each step verified', async () => {
    const { siteId, first, second } = await site();
    const approval = await plans.propose(siteId, [
      { skillName: 'updateItem', arguments: { collection: 'posts', id: first, data: { body: 'new' } } },
      { skillName: 'deleteItem', arguments: { collection: 'posts', id: first } },
      { skillName: 'deleteItem', arguments: { collection: 'posts', id: second } },
      { skillName: 'deleteCollection', arguments: { name: 'tags' } },
    ]);
    const settled = await plans.approveAndRun(siteId, approval.id);
    expect(settled.status).toBe('approved');
    const after = await plans.snapshot(siteId);
    expect(after.collections.map((collection) => [collection.name, collection.items.length])).toEqual([['posts', 0]]);
    expect(after.trash.map((entry) => entry.kind).sort()).toEqual(['collection', 'item', 'item']);
  });
});

describe('a step that cannot be undone (updateField)', () => {
  it('is refused before a later step, with the reason, and planned as the last step', async () => {
    const { siteId } = await site();
    await expect(
      plans.propose(siteId, [
        { skillName: 'updateField', arguments: { collection: 'posts', field: 'body', changes: { required: true } } },
        { skillName: 'createItem', arguments: { collection: 'posts', data: { title: 'x', body: 'y' } } },
      ]),
    ).rejects.toThrow('step 2 cannot be planned: step 1 (“Change a field”) cannot be undone, so nothing may follow it in a plan');
    const last = await plans.propose(siteId, [
      { skillName: 'createItem', arguments: { collection: 'posts', data: { title: 'x', body: 'y' } } },
      { skillName: 'updateField', arguments: { collection: 'posts', field: 'body', changes: { required: true } } },
    ]);
    const settled = await plans.approveAndRun(siteId, last.id);
    expect(settled.lastError).toBeUndefined();
    expect(settled.status).toBe('approved');
  });
});

describe('a plan approved again after a roll-back and an edit removing an earlier step', () => {
  it('keeps its steps’ ids and runs every remaining step exactly once', async () => {
    const { siteId } = await site();
    const approval = await plans.propose(siteId, [
      { skillName: 'createCollection', arguments: { name: 'venues' } },
      { skillName: 'createItem', arguments: { collection: 'posts', data: { title: 'One' } } },
      { skillName: 'createItem', arguments: { collection: 'posts', data: { title: 'Two' } } },
    ]);
    const ids = approval.steps.map((step) => step.id);
    expect(new Set(ids).size).toBe(3);
    const rolledBack = await plans.approveAndRun(siteId, approval.id, { failAt: 3 });
    expect(statuses(rolledBack)).toEqual(['undone', 'undone', 'failed']);

    const editor = new ApprovalEditor({ stores: plans.aiStores, targets: new StoreApprovalTargets(plans.stores) });
    const edited = await editor.editApproval({
      siteId,
      approvalId: approval.id,
      revision: rolledBack.revision,
      steps: [null, { arguments: approval.steps[1]!.arguments }, { arguments: approval.steps[2]!.arguments }],
      editor: EDITOR,
    });
    expect(edited.steps.map((step) => step.id)).toEqual([ids[1], ids[2]]);

    plans.runs.clear();
    const settled = await plans.approveAndRun(siteId, approval.id);
    expect(settled.status).toBe('approved');
    expect(statuses(settled)).toEqual(['done', 'done']);
    // Each step ran once, under the new attempt's operation ids.
    expect([...plans.runs.values()]).toEqual([1, 1]);
    expect([...plans.runs.keys()]).toEqual([`${approval.id}:2:${ids[1]}`, `${approval.id}:2:${ids[2]}`]);
    const posts = (await plans.snapshot(siteId)).collections.find((collection) => collection.name === 'posts')!;
    expect(posts.items.map((item) => item.data.title).sort()).toEqual(['First', 'One', 'Second', 'Two']);
    expect((await plans.snapshot(siteId)).collections.map((collection) => collection.name)).toEqual(['posts', 'tags']);
  });

  it('approved again as it stands, runs every step afresh (the undone ones too)', async () => {
    const { siteId } = await site();
    const approval = await plans.propose(siteId, [
      { skillName: 'createCollection', arguments: { name: 'venues', fields: [TITLE] } },
      { skillName: 'createItem', arguments: { collection: 'venues', data: { title: 'Lyon' } } },
      { skillName: 'createItem', arguments: { collection: 'posts', data: { title: 'Three' } } },
    ]);
    expect(statuses(await plans.approveAndRun(siteId, approval.id, { failAt: 3 }))).toEqual(['undone', 'undone', 'failed']);
    const settled = await plans.approveAndRun(siteId, approval.id);
    expect(settled.status).toBe('approved');
    expect(statuses(settled)).toEqual(['done', 'done', 'done']);
    const collections = (await plans.snapshot(siteId)).collections;
    expect(collections.find((collection) => collection.name === 'venues')!.items.map((item) => item.data)).toEqual([{ title: 'Lyon' }]);
    expect(collections.find((collection) => collection.name === 'posts')!.items).toHaveLength(3);
  });
});
