// One creation path (issue 49): a dangerous call outside a chat turn (here over MCP) is a plan of one step, stored by
// the same commitPlan as a Copilot turn's plan, so the two approvals are the same but for who asked and how.
import { type Approval, CAPABILITIES } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSiteId, openTestDatabase, type TestDatabase } from '../../test-support/ai-test-database.js';
import { recordingExecutors } from '../../test-support/recording-executors.js';
import type { ApprovalTargets } from '../skills/approval-targets.js';
import { callMcpTool } from '../mcp/mcp-tool-call.js';
import { AISecureHarness, type HarnessActor } from './ai-secure-harness.js';
import { TurnPlan } from './turn-plan.js';

let database: TestDatabase;
let harness: AISecureHarness;
const clock = () => new Date('2025-03-01T12:00:00.000Z');
const targets: ApprovalTargets = {
  inspect: async (_siteId, skillName, args) => ({
    target: { kind: 'collection', collection: String(args.name), collectionId: 'c'.repeat(24) },
    impact: { summary: `${skillName} ${String(args.name)}`, items: [{ id: 'i1', title: 'First' }] },
  }),
};

beforeAll(async () => {
  database = await openTestDatabase();
  harness = new AISecureHarness({ targets, stores: database.stores, executors: recordingExecutors().executors, clock });
});
afterAll(() => database?.close());

const admin: HarnessActor = { id: 'u1', name: 'Ada', capabilities: [...CAPABILITIES], isSuperadmin: false };
const call = { name: 'deleteCollection', arguments: { name: 'posts' } };

/** What an approval is apart from where and by whom it was asked. */
function shape(approval: Approval) {
  const { id, siteId, context, ...rest } = approval;
  return { ...rest, idShape: /^[0-9a-f]{24}$/.test(id) };
}

describe('a dangerous call outside a chat turn', () => {
  it('over MCP is stored as a Copilot turn stores its plan of one step, and answered as before', async () => {
    const mcpSite = freshSiteId();
    const outcome = await callMcpTool(
      {
        harness,
        caller: { siteId: mcpSite, actor: admin, client: 'Claude' },
        run: { readBefore: () => [], noteReads: async () => undefined },
        modelCalls: { consume: async () => undefined },
      },
      call,
    );
    expect(outcome).toMatchObject({
      status: 'pending_approval',
      message: expect.stringMatching(/needs a human admin's approval; approval [0-9a-f]{24} is pending\.$/),
    });
    expect(outcome).not.toHaveProperty('step');

    const copilotSite = freshSiteId();
    const context = { siteId: copilotSite, actor: admin, message: 'delete posts', plan: new TurnPlan() };
    expect(await harness.execute(context, call)).toMatchObject({ status: 'pending_approval', step: 1 });
    const committed = await harness.commitPlan(context, context.plan);

    const mcpApproval = (await database.stores.forSite(mcpSite).approvals.list())[0]!;
    const copilotApproval = (await database.stores.forSite(copilotSite).approvals.get(committed!.approvalId))!;
    expect(mcpApproval.id).toBe((outcome as { approvalId: string }).approvalId);
    expect(shape(mcpApproval)).toEqual(shape(copilotApproval));
    expect(mcpApproval.context).toEqual({ message: 'MCP (Claude): deleteCollection', via: 'mcp', client: 'Claude' });
    expect(mcpApproval.steps).toHaveLength(1);

    // Asked again over MCP: the pending one is named, none is made.
    const again = await callMcpTool(
      {
        harness,
        caller: { siteId: mcpSite, actor: admin, client: 'Claude' },
        run: { readBefore: () => [], noteReads: async () => undefined },
        modelCalls: { consume: async () => undefined },
      },
      call,
    );
    expect(again).toMatchObject({
      status: 'pending_approval',
      approvalId: mcpApproval.id,
      message: expect.stringContaining('no second request was made'),
    });
    expect(await database.stores.forSite(mcpSite).approvals.count()).toBe(1);
    const audit = await database.stores.forSite(mcpSite).audit.list({ limit: 10 });
    expect(audit.map((entry) => entry.detail)).toEqual([
      { arguments: call.arguments, alreadyPending: true },
      { arguments: call.arguments },
    ]);
  });
});
