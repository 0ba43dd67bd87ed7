// The gate's tiers (docs/API.md, "The gate's tiers and limits") on the real harness and stores over the wire: each policy
// mode for each kind of skill (reading, safe writing, dangerous), the afterContentRead escalation, the notice a `warn`
// call pushes as a site event, the audit's `tier`, and the hourly limits per skill per site.
import { CAPABILITIES, type CopilotNotice, SKILL_LIST, type SkillMode, writes, isDangerous } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AISecureHarness, type HarnessActor, type HarnessContext } from './ai-secure-harness.js';
import { NO_TARGETS } from '../skills/approval-targets.js';
import { freshSiteId } from '../../test-support/ai-test-database.js';
import { type RecordingExecutors, recordingExecutors } from '../../test-support/recording-executors.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createTestStores, type TestStores } from '../../test-support/test-stores.js';

let database: TestDatabase;
let stores: TestStores;
let recorder: RecordingExecutors;
let harness: AISecureHarness;

beforeAll(async () => {
  database = await openTestDatabase('gate-tiers');
  stores = await createTestStores(database.connection);
  recorder = recordingExecutors();
  harness = new AISecureHarness({
    targets: NO_TARGETS,
    stores: stores.aiStores,
    executors: recorder.executors,
    undoFor: async (_siteId, operationId) => ({ collection: 'posts', id: `item-of-${operationId}`, revision: 1 }),
  });
});
afterAll(() => database?.close());

const admin: HarnessActor = { id: 'u-ada', name: 'Ada', capabilities: [...CAPABILITIES], isSuperadmin: false };

/** One valid call per skill. */
const CALLS: Record<string, Record<string, unknown>> = {
  listCollections: {},
  createCollection: { name: 'events' },
  deleteCollection: { name: 'posts' },
  createField: { collection: 'posts', field: { name: 'date', type: 'datetime' } },
  updateField: { collection: 'posts', field: 'title', changes: { required: true } },
  deleteField: { collection: 'posts', field: 'title' },
  listItems: { collection: 'posts' },
  createItem: { collection: 'posts', data: { title: 'Hello' } },
  updateItem: { collection: 'posts', id: 'i1', data: { title: 'Changed' } },
  deleteItem: { collection: 'posts', id: 'i1' },
  deleteUser: { userId: 'u9' },
  aiSuggestField: { collection: 'posts', description: 'a date' },
  aiContentAssist: { collection: 'posts', field: 'title', instruction: 'shorter' },
  searchItems: { query: 'hello' },
};

type Kind = 'reading' | 'safe writing' | 'dangerous';
const kindOf = (skill: (typeof SKILL_LIST)[number]): Kind =>
  isDangerous(skill) ? 'dangerous' : writes(skill) ? 'safe writing' : 'reading';

/** What the gate did with one call: ran it (and whether it told the admins), asked, or refused. */
async function tierOf(
  skillName: string,
  policy: { skills?: Record<string, SkillMode>; afterContentRead?: 'warn' | 'ask' },
  readBefore?: HarnessContext['readBefore'],
) {
  recorder.reset();
  const siteId = freshSiteId();
  const site = stores.aiStores.forSite(siteId);
  await site.policy.update(policy, new Date());
  const outcome = await harness.execute(
    { siteId, actor: admin, message: 'go', ...(readBefore ? { readBefore } : {}) },
    { name: skillName, arguments: CALLS[skillName] },
  );
  const notices = await site.notices.latest(10);
  const audit = await site.audit.list({ limit: 10 });
  const ran = recorder.calls.length === 1;
  const told = notices.length === 1;
  const shape = outcome.status === 'denied' ? 'off' : outcome.status === 'pending_approval' ? 'ask' : told ? 'warn' : 'auto';
  return { outcome, notices, audit, ran, shape, siteId };
}

describe('each policy mode for each kind of skill', () => {
  const expected: Record<Kind, Record<SkillMode, string>> = {
    // A skill that only reads has nothing to undo: `warn` runs it quietly (and PUT refuses it).
    reading: { auto: 'auto', warn: 'auto', ask: 'ask', off: 'off' },
    'safe writing': { auto: 'auto', warn: 'warn', ask: 'ask', off: 'off' },
    // The seeds' rule: a dangerous skill asks whatever a stored policy says (even one written behind the API).
    dangerous: { auto: 'ask', warn: 'ask', ask: 'ask', off: 'off' },
  };
  for (const skill of SKILL_LIST)
    for (const mode of ['auto', 'warn', 'ask', 'off'] as const)
      it(`${kindOf(skill)} ${skill.name} under ${mode} → ${expected[kindOf(skill)][mode]}`, async () => {
        const { shape, ran, outcome } = await tierOf(skill.name, { skills: { [skill.name]: mode } });
        expect(shape).toBe(expected[kindOf(skill)][mode]);
        expect(ran).toBe(shape === 'auto' || shape === 'warn');
        if (shape === 'off') expect(outcome).toMatchObject({ message: `“${skill.action}” is turned off for this site` });
      });
});

describe('warn', () => {
  it('runs at once, pushes a copilot-notice site event with seq to every socket, and audits the execution with tier warn', async () => {
    const readBefore = [{ skill: 'listItems', collection: 'posts', id: 'i7' }];
    const { outcome, notices, audit, siteId } = await tierOf(
      'updateItem',
      { skills: { updateItem: 'warn' }, afterContentRead: 'warn' },
      readBefore,
    );
    expect(outcome).toMatchObject({ status: 'executed', undo: { collection: 'posts', revision: 1 } });
    const notice = notices[0] as CopilotNotice;
    expect(notice).toMatchObject({
      skillName: 'updateItem',
      arguments: CALLS.updateItem,
      actor: { id: 'u-ada', name: 'Ada' },
      readBefore,
      undo: { collection: 'posts', revision: 1 },
    });
    expect(Date.parse(notice.createdAt)).not.toBeNaN();
    const events = await stores.eventLog.forSite(siteId).listAfter(0);
    expect(events).toEqual([{ name: 'copilot-notice', payload: { seq: 1, siteId, notice } }]);
    expect(stores.published).toContainEqual({ name: 'copilot-notice', payload: { seq: 1, siteId, notice } });
    expect(audit.map((entry) => entry.action)).toEqual(['executed']);
    expect(audit[0]!.detail).toMatchObject({ tier: 'warn', readBefore });
  });

  it('audits a quiet execution without a tier', async () => {
    const { audit } = await tierOf('updateItem', {});
    expect(audit[0]!.action).toBe('executed');
    expect(audit[0]!.detail).not.toHaveProperty('tier');
  });
});

describe('afterContentRead', () => {
  const read = [{ skill: 'searchItems', collection: 'posts', id: 'i3' }];

  it('by default makes a safe write after a content read ask, carrying readBefore', async () => {
    for (const skill of ['createItem', 'updateItem']) {
      const { outcome, ran, siteId, audit } = await tierOf(skill, {}, read);
      expect(outcome.status).toBe('pending_approval');
      expect(ran).toBe(false);
      if (outcome.status !== 'pending_approval') continue;
      const approval = await stores.aiStores.forSite(siteId).approvals.get(outcome.approvalId);
      expect(approval?.context.readBefore).toEqual(read);
      expect(audit[0]).toMatchObject({ action: 'approval_requested', detail: { escalated: 'afterContentRead' } });
    }
  });

  it('set to warn lets it run with a notice carrying readBefore', async () => {
    const { shape, notices } = await tierOf('createItem', { afterContentRead: 'warn' }, read);
    expect(shape).toBe('warn');
    expect(notices[0]!.readBefore).toEqual(read);
  });

  it('never lowers a mode: ask stays ask, off stays off, and reads after a read still run', async () => {
    expect((await tierOf('updateItem', { skills: { updateItem: 'ask' }, afterContentRead: 'warn' }, read)).shape).toBe('ask');
    expect((await tierOf('updateItem', { skills: { updateItem: 'off' } }, read)).shape).toBe('off');
    expect((await tierOf('listItems', {}, read)).shape).toBe('auto');
    expect((await tierOf('updateItem', { skills: { updateItem: 'warn' } }, read)).shape).toBe('ask');
  });

  it('leaves a write with nothing read before it at its own mode', async () => {
    expect((await tierOf('updateItem', {}, [])).shape).toBe('auto');
    expect((await tierOf('updateItem', {})).shape).toBe('auto');
  });
});

describe('hourly limits per skill per site', () => {
  it('counts executions and approvals requested, then denies naming the limit and audits the denial with its reason', async () => {
    const siteId = freshSiteId();
    const site = stores.aiStores.forSite(siteId);
    await site.policy.update({ limits: { createItem: 2, deleteItem: 1 } }, new Date());
    const run = (name: string, args: Record<string, unknown>) =>
      harness.execute({ siteId, actor: admin, message: 'go' }, { name, arguments: args });
    expect((await run('createItem', { collection: 'posts', data: { n: 1 } })).status).toBe('executed');
    expect((await run('createItem', { collection: 'posts', data: { n: 2 } })).status).toBe('executed');
    const refused = await run('createItem', { collection: 'posts', data: { n: 3 } });
    expect(refused).toMatchObject({
      status: 'denied',
      reason: 'limit_reached',
      message: 'the hourly limit of “Create an item” for this site is reached',
    });
    expect((await run('deleteItem', { collection: 'posts', id: 'a' })).status).toBe('pending_approval');
    expect(await run('deleteItem', { collection: 'posts', id: 'b' })).toMatchObject({
      status: 'denied',
      message: 'the hourly limit of “Delete an item” for this site is reached',
    });
    // Another skill and another site have their own counts.
    expect((await run('updateItem', { collection: 'posts', id: 'a', data: {} })).status).toBe('executed');
    const elsewhere = await harness.execute(
      { siteId: freshSiteId(), actor: admin, message: 'go' },
      { name: 'createItem', arguments: { collection: 'posts', data: {} } },
    );
    expect(elsewhere.status).toBe('executed');
    const audit = await site.audit.list({ limit: 10 });
    expect(audit.filter((entry) => entry.action === 'denied').map((entry) => entry.detail)).toEqual([
      expect.objectContaining({
        reason: 'limit_reached',
        message: 'the hourly limit of “Delete an item” for this site is reached',
        limit: 1,
      }),
      expect.objectContaining({
        reason: 'limit_reached',
        message: 'the hourly limit of “Create an item” for this site is reached',
        limit: 2,
      }),
    ]);
  });
});
