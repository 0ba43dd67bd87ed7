// The server's words for people (issue 32.5): every denial, pending note, failure, conversation note and Slack line names a
// skill by its action ("Delete a collection"), never by its internal camelCase name; the machine field `skill.name` keeps it.
import { type Approval, CAPABILITIES, NotFoundError, SKILL_NAMES, type SkillOutcome } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalOutcomeMessage } from '../approvals/note-approval-outcome.js';
import { NO_TARGETS } from '../skills/approval-targets.js';
import { freshSiteId } from '../../test-support/ai-test-database.js';
import { type RecordingExecutors, recordingExecutors } from '../../test-support/recording-executors.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createTestStores, type TestStores } from '../../test-support/test-stores.js';
import { slackText } from '../webhooks/webhook-message.js';
import { AISecureHarness, type HarnessActor } from './ai-secure-harness.js';
import { TurnPlan } from './turn-plan.js';

const CAMEL_SKILL = new RegExp(`\\b(${SKILL_NAMES.join('|')})\\b`);

let database: TestDatabase;
let stores: TestStores;
let recorder: RecordingExecutors;
let harness: AISecureHarness;

beforeAll(async () => {
  database = await openTestDatabase('messages-in-words');
  stores = await createTestStores(database.connection);
  recorder = recordingExecutors();
  harness = new AISecureHarness({ targets: NO_TARGETS, stores: stores.aiStores, executors: recorder.executors });
});
afterAll(() => database?.close());

const admin: HarnessActor = { id: 'u-ada', name: 'Ada', capabilities: [...CAPABILITIES], isSuperadmin: false };
const viewer: HarnessActor = { id: 'u-vic', name: 'Vic', capabilities: ['schema:read', 'content:read'], isSuperadmin: false };

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

const messageOf = (outcome: SkillOutcome) => ('message' in outcome ? (outcome.message ?? '') : '');

describe('the gate’s messages name skills in words', () => {
  for (const name of SKILL_NAMES) {
    it(`${name}: turned off, over its limit, without the capability, with bad arguments, failing`, async () => {
      const run = async (siteId: string, actor = admin, args: unknown = CALLS[name]) => {
        recorder.reset();
        return harness.execute({ siteId, actor, message: 'go' }, { name, arguments: args });
      };
      const off = freshSiteId();
      await stores.aiStores.forSite(off).policy.update({ skills: { [name]: 'off' } }, new Date());
      const limited = freshSiteId();
      await stores.aiStores.forSite(limited).policy.update({ limits: { [name]: 0 } }, new Date());
      const outcomes = [
        await run(off),
        await run(limited),
        await run(freshSiteId(), viewer),
        await run(freshSiteId(), admin, { bogus: 1 }),
      ];
      const failing = freshSiteId();
      recorder.behaviour = { error: new NotFoundError({ message: 'collection posts not found' }) };
      outcomes.push(await harness.execute({ siteId: failing, actor: admin, message: 'go' }, { name, arguments: CALLS[name] }));
      recorder.behaviour = { error: new Error('driver exploded') };
      outcomes.push(await harness.execute({ siteId: failing, actor: admin, message: 'go' }, { name, arguments: CALLS[name] }));
      const said = outcomes.map(messageOf).filter((message) => message !== '');
      expect(said.length).toBeGreaterThanOrEqual(4);
      for (const message of said) expect(message).not.toMatch(CAMEL_SKILL);
      expect(outcomes[0]).toMatchObject({ status: 'denied', reason: 'turned_off', skill: { name } });
    });
  }

  it('asking, asking again and planning say the action, not the name', async () => {
    const siteId = freshSiteId();
    const ask = () => harness.execute({ siteId, actor: admin, message: 'go' }, { name: 'deleteCollection', arguments: { name: 'posts' } });
    const first = await ask();
    const again = await ask();
    expect(messageOf(first)).toMatch(/^“Delete a collection” needs a human admin's approval/);
    expect(messageOf(again)).toMatch(/^“Delete a collection” with these arguments is already waiting/);
    const plan = new TurnPlan();
    const planned = await harness.execute(
      { siteId: freshSiteId(), actor: admin, message: 'go', plan },
      { name: 'deleteField', arguments: { collection: 'posts', field: 'title' } },
    );
    expect(messageOf(planned)).toMatch(/^“Delete a field” is step 1 of a plan/);
  });
});

describe('notes and Slack lines about an approval', () => {
  const approval = (status: Approval['status'], extra: Partial<Approval> = {}): Approval =>
    ({
      id: 'a1',
      siteId: 's1',
      skillName: 'createField',
      arguments: CALLS.createField,
      context: { message: 'go', conversationId: 'c1' },
      status,
      requestedBy: { id: 'u-ada', name: 'Ada' },
      decidedBy: { id: 'u-bea', name: 'Bea' },
      attempts: 1,
      revision: 2,
      expiresAt: '2030-01-01T00:00:00.000Z',
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
      ...extra,
    }) as Approval;

  it('tells the conversation what became of it in words', () => {
    const cases = [
      approval('approved'),
      approval('rejected', { reason: 'no' }),
      approval('pending', { lastError: 'boom' }),
      approval('expired', { reason: 'target_changed' }),
    ];
    for (const settled of cases) {
      const note = approvalOutcomeMessage(settled, new Date());
      expect(note?.content).toMatch(/“Add a field”/);
      expect(note?.content).not.toMatch(CAMEL_SKILL);
    }
  });

  it('Slack lines for an approval and a warn notice', () => {
    const lines = [
      slackText('approval-created', { approval: approval('pending') }, 'https://cms.test'),
      slackText('approval-decided', { approval: approval('approved') }, 'https://cms.test'),
      slackText('copilot-notice', { notice: { skillName: 'updateItem', actor: { name: 'Ada' }, arguments: {} } }, 'https://cms.test'),
    ];
    for (const line of lines) expect(line).not.toMatch(CAMEL_SKILL);
    expect(lines[2]).toContain('ran “Change an item”');
  });
});
