// Test support for plans run in process: the real stores over the wire, the CMS services, the skill executors, the
// approval store, the dry run, the job runner and the undoer, as the worker composes them — with one seam, a step made
// to fail before it runs (the executors refuse it, as a service refuses a write it cannot make).
import { randomUUID } from 'node:crypto';
import { type Approval, type Field, SKILL_NAMES, ValidationError } from '@lumibase/shared';
import { Types } from 'mongoose';
import { ApprovalJobRunner } from '../src/approvals/approval-job-runner.js';
import { startExecution } from '../src/approvals/approval-operations.js';
import { stepOperationId } from '../src/approvals/run-plan.js';
import type { SkillExecutionContext, SkillExecutors } from '../src/skills/skill-executors.js';
import { createStepUndoer } from '../src/approvals/undo-step.js';
import { CollectionsService } from '../src/services/collections.service.js';
import { DomainEvents } from '../src/services/domain-events.js';
import { FieldsService } from '../src/services/fields.service.js';
import { ItemsService } from '../src/services/items.service.js';
import { MembersService } from '../src/services/members.service.js';
import { RevisionsService } from '../src/services/revisions.service.js';
import { SiteAccessService } from '../src/services/site-access.service.js';
import { TrashService } from '../src/services/trash.service.js';
import { createSkillExecutors } from '../src/skills/create-skill-executors.js';
import { dryRunPlan } from '../src/skills/dry-run.js';
import { planApproval } from '../src/skills/plan-approval.js';
import { StoreApprovalTargets } from '../src/skills/store-approval-targets.js';
import type { AiStores } from '../src/store/ai/ai-stores.js';
import type { Stores } from '../src/store/stores.js';
import { openTestDatabase, type TestDatabase } from './test-database.js';
import { createTestStores } from './test-stores.js';

export const PLAN_ACTOR = { id: 'u-ada', name: 'Ada' };

export interface Call {
  skillName: string;
  arguments: Record<string, unknown>;
}

/** What a site holds, as an admin would compare it: collections with their fields, items with their data, the trash. */
export interface SiteSnapshot {
  collections: { name: string; fields: Field[]; items: { id: string; data: Record<string, unknown> }[] }[];
  trash: { kind: string; collection: string; field?: string; itemId?: string; state: string }[];
}

export interface PlanFixture {
  stores: Stores;
  aiStores: AiStores;
  collections: CollectionsService;
  fields: FieldsService;
  items: ItemsService;
  revisions: RevisionsService;
  /** The approval targets (with a site view: plans are dry-run) and the worker's job runner, for a decider of its own. */
  targets: StoreApprovalTargets;
  runner: ApprovalJobRunner;
  newSite(): Promise<string>;
  /** The calls dry-run and stored as one pending plan (throws when the dry run refuses one). */
  propose(siteId: string, calls: readonly Call[]): Promise<Approval>;
  /**
   * Approves the pending approval and runs its job to the end; `failAt` (from 1): that step is refused when it runs;
   * `beforeStep`: called as each step's write begins (after its target was checked), for someone else's change then.
   */
  approveAndRun(
    siteId: string,
    approvalId: string,
    options?: { failAt?: number; beforeStep?: (step: number) => Promise<void> },
  ): Promise<Approval>;
  /** How many times each executor ran a step's write (calls answered by the ledger included), by operation id. */
  runs: Map<string, number>;
  snapshot(siteId: string): Promise<SiteSnapshot>;
  close(): Promise<void>;
}

export async function openPlanFixture(label: string): Promise<PlanFixture> {
  const database: TestDatabase = await openTestDatabase(label);
  const { stores, aiStores } = await createTestStores(database.connection);
  const collections = new CollectionsService(stores);
  const fields = new FieldsService(stores);
  const items = new ItemsService(stores);
  const audit = (siteId: string) => aiStores.forSite(siteId).audit;
  const revisions = new RevisionsService({ stores, audit });
  const trash = new TrashService({ stores, fields, audit, revisions });
  const real = createSkillExecutors({
    collections,
    fields,
    items,
    revisions,
    members: new MembersService(stores, new DomainEvents()),
    access: new SiteAccessService(stores),
    operations: aiStores,
  });
  let refused: string | undefined;
  let before: ((operationId: string) => Promise<void>) | undefined;
  const runs = new Map<string, number>();
  const executors = Object.fromEntries(
    SKILL_NAMES.map((name) => [
      name,
      async (args: Record<string, unknown>, context: SkillExecutionContext) => {
        await before?.(context.operationId);
        if (context.operationId === refused) throw new ValidationError({ message: 'the step was made to fail' });
        runs.set(context.operationId, (runs.get(context.operationId) ?? 0) + 1);
        return (real[name] as (args: Record<string, unknown>, context: SkillExecutionContext) => Promise<unknown>)(args, context);
      },
    ]),
  ) as unknown as SkillExecutors;
  const targets = new StoreApprovalTargets(stores);
  const runner = new ApprovalJobRunner({
    stores: aiStores,
    executors,
    targets,
    undo: createStepUndoer({ stores, fields, revisions, trash, operations: aiStores }),
  });

  return {
    stores,
    aiStores,
    collections,
    fields,
    items,
    revisions,
    targets,
    runner,
    runs,
    newSite: async () => (await stores.sites.create(`Plans ${randomUUID().slice(0, 8)}`)).id,
    async propose(siteId, calls) {
      const dry = await dryRunPlan(targets, siteId, calls);
      if (!dry.ok) throw new Error(`step ${dry.index + 1} cannot be planned: ${dry.reason}`);
      const shown = await planApproval(targets, siteId, dry.steps);
      const at = new Date();
      const { approval } = await aiStores.forSite(siteId).approvals.insertUnlessPending({
        ...shown,
        context: { message: 'a plan' },
        status: 'pending',
        requestedBy: PLAN_ACTOR,
        attempts: 0,
        expiresAt: new Date(at.getTime() + 3_600_000).toISOString(),
        createdAt: at.toISOString(),
        updatedAt: at.toISOString(),
      });
      return approval;
    },
    async approveAndRun(siteId, approvalId, { failAt, beforeStep } = {}) {
      const approvals = aiStores.forSite(siteId).approvals;
      const pending = await approvals.get(approvalId);
      if (!pending) throw new Error(`no approval ${approvalId}`);
      const executing = await startExecution(approvals, pending, { actor: { id: 'u-bea', name: 'Bea' }, at: new Date() });
      if (!executing) throw new Error(`approval ${approvalId} could not start`);
      refused = failAt === undefined ? undefined : stepOperationId(executing, failAt - 1);
      const operations = executing.steps.map((_step, index) => stepOperationId(executing, index));
      before =
        beforeStep &&
        ((operationId) => (operations.includes(operationId) ? beforeStep(operations.indexOf(operationId) + 1) : Promise.resolve()));
      try {
        await runner.run({ siteId, approvalId, attempt: executing.attempts }, { settleTransient: true });
      } finally {
        refused = undefined;
        before = undefined;
      }
      return (await approvals.get(approvalId))!;
    },
    async snapshot(siteId) {
      const site = stores.forSite(siteId);
      const all = await site.collections.listAll();
      const snapshot: SiteSnapshot = { collections: [], trash: [] };
      for (const record of [...all].sort((a, b) => a.name.localeCompare(b.name))) {
        const { records } = await site.items.list(record.id, { limit: 1000, offset: 0 });
        snapshot.collections.push({
          name: record.name,
          fields: record.fields,
          items: records.map((item) => ({ id: item.id, data: item.data })).sort((a, b) => a.id.localeCompare(b.id)),
        });
      }
      const entries = await stores.models.trash.find({ siteId: new Types.ObjectId(siteId) }).lean();
      snapshot.trash = (entries as unknown as Record<string, unknown>[])
        .map((entry) => ({
          kind: String(entry.kind),
          collection: String(entry.collectionName),
          ...(entry.field ? { field: String(entry.field) } : {}),
          ...(entry.itemId ? { itemId: String(entry.itemId) } : {}),
          state: String(entry.state),
        }))
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      return snapshot;
    },
    close: () => database.close(),
  };
}
