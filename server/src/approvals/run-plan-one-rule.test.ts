// A plan's step is run by the rules of a one-step approval: its target compared by sameTarget (key order aside), and a
// transient failure left to the queue's next try while it has tries left (transient-failure.ts), settled on the last.
import { type Approval, type DomainError, type Field, ValidationError } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPlanFixture, type PlanFixture } from '../../test-support/plan-fixture.js';
import { createSkillExecutors } from '../skills/create-skill-executors.js';
import { StoreApprovalTargets } from '../skills/store-approval-targets.js';
import type { ApprovalTargets } from '../skills/approval-targets.js';
import { MembersService } from '../services/members.service.js';
import { DomainEvents } from '../services/domain-events.js';
import { SiteAccessService } from '../services/site-access.service.js';
import { startExecution } from './approval-operations.js';
import { runPlan } from './run-plan.js';
import type { SkillExecutionContext, SkillExecutors } from '../skills/skill-executors.js';
import { retriesFailure, TransientExecutionError } from './transient-failure.js';

let plans: PlanFixture;
beforeAll(async () => {
  plans = await openPlanFixture('plan_one_rule');
});
afterAll(async () => plans?.close());

const TITLE: Field = { name: 'title', type: 'string', required: true };

describe('retriesFailure: the one retry rule', () => {
  it('retries an internal or unavailable failure while the queue has tries left; settles anything else', () => {
    for (const code of ['INTERNAL', 'UNAVAILABLE', undefined]) {
      expect(retriesFailure({ message: 'm', ...(code ? { code } : {}) }, { settleTransient: false })).toBe(true);
      expect(retriesFailure({ message: 'm', ...(code ? { code } : {}) }, { settleTransient: true })).toBe(false);
      expect(retriesFailure({ message: 'm', ...(code ? { code } : {}) }, {})).toBe(false);
    }
    for (const code of ['VALIDATION_FAILED', 'NOT_FOUND', 'FORBIDDEN', 'CONFLICT'])
      expect(retriesFailure({ message: 'm', code }, { settleTransient: false })).toBe(false);
  });
});

function executorsFailing(fail: (skillName: string, context: SkillExecutionContext) => Error | undefined): SkillExecutors {
  const real = createSkillExecutors({
    collections: plans.collections,
    fields: plans.fields,
    items: plans.items,
    revisions: plans.revisions,
    members: new MembersService(plans.stores, new DomainEvents()),
    access: new SiteAccessService(plans.stores),
    operations: plans.aiStores,
  });
  return new Proxy(real, {
    get(target, name: string) {
      const executor = (
        target as unknown as Record<string, (args: Record<string, unknown>, context: SkillExecutionContext) => Promise<unknown>>
      )[name];
      return async (args: Record<string, unknown>, context: SkillExecutionContext) => {
        const error = fail(name, context);
        if (error) throw error;
        return executor!(args, context);
      };
    },
  });
}

async function executing(siteId: string, approval: Approval): Promise<Approval> {
  const started = await startExecution(plans.aiStores.forSite(siteId).approvals, approval, {
    actor: { id: 'u-bea', name: 'Bea' },
    at: new Date(),
  });
  if (!started) throw new Error('could not start');
  return started;
}

describe('a plan step', () => {
  it('that fails transiently is left to the queue while it has tries left, then run again under its operation id', async () => {
    const siteId = await plans.newSite();
    const proposed = await plans.propose(siteId, [
      { skillName: 'createCollection', arguments: { name: 'events', fields: [TITLE] } },
      { skillName: 'createItem', arguments: { collection: 'events', data: { title: 'Launch' } } },
    ]);
    const approvals = plans.aiStores.forSite(siteId).approvals;
    const targets = new StoreApprovalTargets(plans.stores);
    let failures = 1;
    const operations: string[] = [];
    const executors = executorsFailing((name, context) => {
      if (name !== 'createItem') return undefined;
      operations.push(context.operationId);
      return failures-- > 0 ? new Error('connection reset') : undefined;
    });
    const first = await executing(siteId, proposed);
    await expect(runPlan({ approval: first, approvals, executors, targets, settleTransient: false })).rejects.toBeInstanceOf(
      TransientExecutionError,
    );
    const left = (await approvals.get(proposed.id))!;
    expect(left.status).toBe('executing');
    expect(left.steps.map((step) => step.status)).toEqual(['done', 'running']);
    // The queue's next try: the step resumes, nothing is undone.
    const settled = await runPlan({ approval: left, approvals, executors, targets, settleTransient: false });
    expect(settled.status).toBe('approved');
    expect(settled.steps.map((step) => step.status)).toEqual(['done', 'done']);
    expect(new Set(operations).size).toBe(1);
  });

  it('that fails transiently on the last try, or with a refusal on any, fails the plan at once', async () => {
    for (const [error, settleTransient] of [
      [new Error('connection reset'), true],
      [new ValidationError({ message: 'refused' }), false],
    ] as [DomainError | Error, boolean][]) {
      const siteId = await plans.newSite();
      const proposed = await plans.propose(siteId, [
        { skillName: 'createCollection', arguments: { name: 'events', fields: [TITLE] } },
        { skillName: 'createItem', arguments: { collection: 'events', data: { title: 'Launch' } } },
      ]);
      const approvals = plans.aiStores.forSite(siteId).approvals;
      const executors = executorsFailing((name) => (name === 'createCollection' ? error : undefined));
      const settled = await runPlan({
        approval: await executing(siteId, proposed),
        approvals,
        executors,
        targets: new StoreApprovalTargets(plans.stores),
        settleTransient,
      });
      expect(settled.status).toBe('pending');
      expect(settled.steps.map((step) => step.status)).toEqual(['failed', 'skipped']);
    }
  });

  it('finds its target unchanged when the site gives it back with its keys in another order (sameTarget)', async () => {
    const siteId = await plans.newSite();
    await plans.collections.create(siteId, { name: 'posts', fields: [TITLE] });
    const item = await plans.items.create(siteId, 'posts', { title: 'First' });
    const proposed = await plans.propose(siteId, [
      { skillName: 'createField', arguments: { collection: 'posts', field: { name: 'views', type: 'integer' } } },
      { skillName: 'updateItem', arguments: { collection: 'posts', id: item.id, data: { title: 'First, edited' } } },
    ]);
    expect(proposed.steps.every((step) => step.target && Object.keys(step.target).length > 1)).toBe(true);
    const store = new StoreApprovalTargets(plans.stores);
    const reversed: ApprovalTargets = {
      async inspect(site, skillName, args) {
        const preview = await store.inspect(site, skillName, args);
        return preview.target
          ? { ...preview, target: Object.fromEntries(Object.entries(preview.target).reverse()) as typeof preview.target }
          : preview;
      },
      siteView: (site) => store.siteView(site),
    };
    const settled = await runPlan({
      approval: await executing(siteId, proposed),
      approvals: plans.aiStores.forSite(siteId).approvals,
      executors: executorsFailing(() => undefined),
      targets: reversed,
    });
    expect(settled.status).toBe('approved');
  });
});
