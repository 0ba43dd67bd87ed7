// What a plan's roll-back undoes, and what it says it undid (docs/API.md, "Runs and plans"): a step's undo removes only what
// that step created — a field that was already there when the step "added" it stays, with its values, and the roll-back
// says so in words —, and the audit records `rolled_back` whenever steps were undone, also when the plan ends `expired`.
import type { AuditEntry, Field } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { openPlanFixture, type PlanFixture } from '../../test-support/plan-fixture.js';

let plans: PlanFixture;
beforeAll(async () => {
  plans = await openPlanFixture('plan_rollback_leaves');
});
afterAll(async () => plans?.close());

const TITLE: Field = { name: 'title', type: 'string', required: true };
const VIEWS: Field = { name: 'views', type: 'integer', required: false };

/** A site with `posts` (title) holding two items. */
async function site() {
  const siteId = await plans.newSite();
  await plans.collections.create(siteId, { name: 'posts', fields: [TITLE] });
  const first = await plans.items.create(siteId, 'posts', { title: 'First' });
  const second = await plans.items.create(siteId, 'posts', { title: 'Second' });
  return { siteId, first: first.id, second: second.id };
}

/** The approval's audit entries in chain order, once the one that ends its execution (`until`) has landed. */
const auditOf = (siteId: string, approvalId: string, until: AuditEntry['action']) =>
  eventually(async () => {
    const entries = [...(await plans.aiStores.forSite(siteId).audit.ofApproval(approvalId))].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
    expect(entries.map((entry) => entry.action)).toContain(until);
    return entries;
  });

describe('a plan rolled back after a step found its field already there', () => {
  it('leaves the field and its values (it did not add them) and says so on the step and in the audit', async () => {
    const { siteId, first } = await site();
    const approval = await plans.propose(siteId, [
      { skillName: 'createField', arguments: { collection: 'posts', field: VIEWS } },
      { skillName: 'createItem', arguments: { collection: 'posts', data: { title: 'Third' } } },
    ]);
    // Someone adds the very same field (and a value) after step 1's target was checked, just before its write.
    const settled = await plans.approveAndRun(siteId, approval.id, {
      failAt: 2,
      beforeStep: async (step) => {
        if (step !== 1) return;
        await plans.fields.add(siteId, 'posts', VIEWS);
        await plans.items.update(siteId, 'posts', first, { views: 7 });
      },
    });
    expect(settled.status).toBe('pending');
    expect(settled.steps.map((step) => step.status)).toEqual(['undone', 'failed']);

    const posts = (await plans.snapshot(siteId)).collections.find((collection) => collection.name === 'posts')!;
    expect(posts.fields.map((field) => field.name)).toEqual(['title', 'views']);
    expect(posts.items.find((item) => item.id === first)!.data).toEqual({ title: 'First', views: 7 });

    const left = 'the field views of posts was not added by this step (it was already there), so it was left as it is, with its values';
    expect(settled.steps[0]!.undoNote).toBe(left);
    const audit = await auditOf(siteId, approval.id, 'rolled_back');
    expect(audit.find((entry) => entry.action === 'rolled_back')!.detail).toEqual({
      undone: [1],
      left: [{ step: 1, note: left }],
      lastError: settled.lastError,
    });
  });

  it('still removes a field its own step added, with its values and no trash entry', async () => {
    const { siteId, first } = await site();
    const before = await plans.snapshot(siteId);
    const approval = await plans.propose(siteId, [
      { skillName: 'createField', arguments: { collection: 'posts', field: VIEWS } },
      { skillName: 'updateItem', arguments: { collection: 'posts', id: first, data: { views: 3 } } },
      { skillName: 'createItem', arguments: { collection: 'posts', data: { title: 'Third' } } },
    ]);
    const settled = await plans.approveAndRun(siteId, approval.id, { failAt: 3 });
    expect(settled.steps.map((step) => [step.status, step.undoNote])).toEqual([
      ['undone', undefined],
      ['undone', undefined],
      ['failed', undefined],
    ]);
    expect(await plans.snapshot(siteId)).toEqual(before);
    const audit = await auditOf(siteId, approval.id, 'rolled_back');
    expect(audit.find((entry) => entry.action === 'rolled_back')!.detail).toEqual({ undone: [1, 2], lastError: settled.lastError });
  });
});

describe('a plan whose target changed while it ran', () => {
  it('ends expired with its done steps undone, audited execution_failed, rolled_back (what was undone), expired', async () => {
    const { siteId, first } = await site();
    const before = await plans.snapshot(siteId);
    const approval = await plans.propose(siteId, [
      { skillName: 'createItem', arguments: { collection: 'posts', data: { title: 'One' } } },
      { skillName: 'createItem', arguments: { collection: 'posts', data: { title: 'Two' } } },
      { skillName: 'deleteItem', arguments: { collection: 'posts', id: first } },
    ]);
    // Step 3's item is edited by someone while step 2 runs: its target changed before it runs.
    const settled = await plans.approveAndRun(siteId, approval.id, {
      beforeStep: async (step) => {
        if (step === 2) await plans.items.update(siteId, 'posts', first, { title: 'First, edited elsewhere' });
      },
    });
    expect(settled.status).toBe('expired');
    expect(settled.reason).toBe('target_changed');
    expect(settled.steps.map((step) => step.status)).toEqual(['undone', 'undone', 'failed']);
    const posts = (await plans.snapshot(siteId)).collections.find((collection) => collection.name === 'posts')!;
    expect(posts.items.map((item) => item.data.title).sort()).toEqual(['First, edited elsewhere', 'Second']);
    expect(posts.items.length).toBe(before.collections[0]!.items.length);

    const audit = await auditOf(siteId, approval.id, 'expired');
    expect(audit.map((entry) => entry.action)).toEqual(['execution_failed', 'rolled_back', 'expired']);
    expect(audit[1]!.detail).toEqual({ undone: [1, 2], lastError: settled.steps[2]!.error });
    expect(audit[2]!.detail).toEqual({ reason: 'target_changed' });
    expect((await plans.aiStores.forSite(siteId).audit.verify()).valid).toBe(true);
  });
});
