// A plan's impact taken again at decision (docs/API.md, "AI Copilot": every step's, for a plan), as a one-step approval's:
// grown since it was shown → the approval's impact is refreshed (revision + 1, pushed), the decide answers 409 and
// nothing runs; approving what is now shown runs it. The real decider, stores over the wire, dry run and job runner.
import { CAPABILITIES, ConflictError, type Field } from '@lumibase/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inProcessExecutor } from '../../test-support/in-process-executor.js';
import { openPlanFixture, type PlanFixture } from '../../test-support/plan-fixture.js';
import { ApprovalDecider, type Decider } from './decide-approval.js';

let plans: PlanFixture;
let decider: ApprovalDecider;
beforeAll(async () => {
  plans = await openPlanFixture('plan_decision_impact');
  decider = new ApprovalDecider({
    stores: plans.aiStores,
    targets: plans.targets,
    executor: inProcessExecutor(plans.aiStores, plans.runner),
  });
});
afterAll(async () => plans?.close());

const TITLE: Field = { name: 'title', type: 'string', required: true };
const BEA: Decider = { id: 'u-bea', name: 'Bea', capabilities: [...CAPABILITIES], isSuperadmin: false };

it('refreshes a plan whose step’s impact grew: 409, every step’s impact as it now is, nothing run; then approving it runs', async () => {
  const siteId = await plans.newSite();
  await plans.collections.create(siteId, { name: 'posts', fields: [TITLE] });
  await plans.collections.create(siteId, { name: 'tags', fields: [TITLE] });
  for (const title of ['First', 'Second']) await plans.items.create(siteId, 'posts', { title });
  const calls = [
    { skillName: 'deleteCollection', arguments: { name: 'posts' } },
    { skillName: 'createItem', arguments: { collection: 'tags', data: { title: 'news' } } },
  ];
  const approval = await plans.propose(siteId, calls);
  expect(approval.steps[0]!.impact?.summary).toBe('Deletes the collection posts and its 2 items');

  // posts grows after the plan was shown.
  for (const title of ['Third', 'Fourth', 'Fifth']) await plans.items.create(siteId, 'posts', { title });
  const decide = (revision: number) =>
    decider.decideApproval({ siteId, approvalId: approval.id, decision: 'approved', revision, decider: BEA });

  await expect(decide(approval.revision)).rejects.toThrow(
    new ConflictError({ message: 'The impact of this approval changed; review it again' }),
  );
  const refreshed = (await plans.aiStores.forSite(siteId).approvals.get(approval.id))!;
  expect(refreshed).toMatchObject({ status: 'pending', revision: approval.revision + 1, attempts: 0 });
  expect(refreshed.steps.map((step) => [step.id, step.status, step.impact?.summary])).toEqual([
    [approval.steps[0]!.id, 'planned', 'Deletes the collection posts and its 5 items'],
    [approval.steps[1]!.id, 'planned', approval.steps[1]!.impact?.summary],
  ]);
  expect(refreshed.steps[0]!.impact?.items?.map((item) => item.title).sort()).toEqual(['Fifth', 'First', 'Fourth', 'Second', 'Third']);
  expect(refreshed.impact?.summary).toBe(`1. Deletes the collection posts and its 5 items; 2. ${approval.steps[1]!.impact?.summary}`);
  // Nothing ran, and the refreshed plan is still the same request (an identical one finds it).
  expect((await plans.snapshot(siteId)).collections.find((collection) => collection.name === 'posts')!.items).toHaveLength(5);
  expect((await plans.propose(siteId, calls)).id).toBe(approval.id);

  const approved = await decide(refreshed.revision);
  expect(approved.status).toBe('approved');
  expect((await plans.snapshot(siteId)).collections.map((collection) => collection.name)).toEqual(['tags']);
});

it('runs a plan whose impacts did not change', async () => {
  const siteId = await plans.newSite();
  await plans.collections.create(siteId, { name: 'posts', fields: [TITLE] });
  await plans.collections.create(siteId, { name: 'tags', fields: [TITLE] });
  const approval = await plans.propose(siteId, [
    { skillName: 'deleteCollection', arguments: { name: 'posts' } },
    { skillName: 'createItem', arguments: { collection: 'tags', data: { title: 'news' } } },
  ]);
  const approved = await decider.decideApproval({
    siteId,
    approvalId: approval.id,
    decision: 'approved',
    revision: approval.revision,
    decider: BEA,
  });
  expect(approved.status).toBe('approved');
});
