// The Copilot policy's safety property on the real gate, decider, job runner and stores over the wire: for any
// stored policy (even one naming a dangerous skill `auto`, written behind the API's validation) and any skill call,
// a dangerous skill never runs without an approval decided by someone allowed to decide it; and (docs/PROPERTIES.md 23) for
// any policy and any content read before a write in the same run, the write is an approval or, with `warn`, runs with a
// copilot-notice carrying readBefore — never silently.
import fc from 'fast-check';
import {
  canDecideApproval,
  ForbiddenError,
  hasCapabilities,
  isDangerous,
  SKILL_MODES,
  SKILL_NAMES,
  type SkillMode,
} from '@lumibase/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshSiteId, openTestDatabase, type TestDatabase } from '../../test-support/ai-test-database.js';
import { writes, AFTER_CONTENT_READ_MODES, type ReadBefore } from '@lumibase/shared';
import { AISecureHarness } from '../gate/ai-secure-harness.js';
import { ApprovalJobRunner } from './approval-job-runner.js';
import { NO_TARGETS } from '../skills/approval-targets.js';
import { inProcessExecutor } from '../../test-support/in-process-executor.js';
import { ApprovalDecider } from './decide-approval.js';
import { actorWith, capabilityHolderArbitrary, validCallArbitrary } from '../../test-support/harness-arbitraries.js';
import { type RecordingExecutors, recordingExecutors } from '../../test-support/recording-executors.js';

let database: TestDatabase;
let recorder: RecordingExecutors;
let harness: AISecureHarness;
let decider: ApprovalDecider;

beforeAll(async () => {
  database = await openTestDatabase();
  recorder = recordingExecutors();
  harness = new AISecureHarness({ targets: NO_TARGETS, stores: database.stores, executors: recorder.executors });
  const runner = new ApprovalJobRunner({ stores: database.stores, executors: recorder.executors, targets: NO_TARGETS });
  decider = new ApprovalDecider({ targets: NO_TARGETS, stores: database.stores, executor: inProcessExecutor(database.stores, runner) });
});
afterAll(() => database?.close());

const storedPolicyArbitrary = fc.record({
  selfApproval: fc.boolean(),
  skills: fc.dictionary(fc.constantFrom(...SKILL_NAMES), fc.constantFrom<SkillMode>(...SKILL_MODES)),
  afterContentRead: fc.constantFrom(...AFTER_CONTENT_READ_MODES),
});

const readBeforeArbitrary: fc.Arbitrary<ReadBefore[]> = fc.array(
  fc.record(
    {
      skill: fc.constantFrom('listItems', 'searchItems', 'aiContentAssist', 'aiSuggestField', 'listCollections', 'updateItem'),
      collection: fc.constantFrom('posts', 'news'),
      id: fc.stringMatching(/^[0-9a-f]{4,8}$/),
    },
    { requiredKeys: ['skill'] },
  ),
  { maxLength: 3 },
);

it('a dangerous skill never runs without an approval decided by someone allowed, and no write after a read runs silently, whatever the policy', async () => {
  await fc.assert(
    fc.asyncProperty(
      storedPolicyArbitrary,
      validCallArbitrary(),
      capabilityHolderArbitrary,
      fc.oneof(fc.constant('requester' as const), capabilityHolderArbitrary),
      readBeforeArbitrary,
      async (policy, call, requesterHolder, deciderChoice, readBefore) => {
        recorder.reset();
        const siteId = freshSiteId();
        const stores = database.stores.forSite(siteId);
        await stores.policy.update(policy, new Date());
        const requester = actorWith(requesterHolder);
        const outcome = await harness.execute(
          { siteId, actor: requester, message: 'go', ...(readBefore.length > 0 ? { readBefore } : {}) },
          { name: call.skill.name, arguments: call.arguments },
        );
        const mode = policy.skills[call.skill.name];
        const notices = await stores.notices.latest(10);

        // No write after a read runs silently: it asks, or it ran with a notice carrying readBefore.
        if (readBefore.length > 0 && writes(call.skill) && outcome.status === 'executed') {
          expect(notices).toHaveLength(1);
          expect(notices[0]!.readBefore).toEqual(readBefore);
          expect(policy.afterContentRead === 'warn' || mode === 'warn').toBe(true);
        }
        if (outcome.status === 'pending_approval' && readBefore.length > 0) {
          expect((await stores.approvals.get(outcome.approvalId))?.context.readBefore).toEqual(readBefore);
        }
        // A notice only ever follows a write that ran.
        if (notices.length > 0) expect(outcome.status === 'executed' && writes(call.skill)).toBe(true);

        if (isDangerous(call.skill)) {
          // Inside the turn: never run, whatever the policy says.
          expect(recorder.calls).toHaveLength(0);
          expect(outcome.status).not.toBe('executed');
        }
        if (mode === 'off' && hasCapabilities(requester, call.skill.requiredCapabilities))
          expect(outcome).toMatchObject({ status: 'denied', message: `“${call.skill.action}” is turned off for this site` });
        if (outcome.status !== 'pending_approval') {
          if (isDangerous(call.skill)) expect(recorder.calls).toHaveLength(0);
          return;
        }

        const person = deciderChoice === 'requester' ? requester : actorWith(deciderChoice);
        const allowed = canDecideApproval(person, call.skill.name) && (policy.selfApproval || person.id !== requester.id);
        let refused: unknown;
        await decider.decideApproval({ siteId, approvalId: outcome.approvalId, decision: 'approved', decider: person }).catch((error) => {
          refused = error;
        });
        if (allowed) {
          expect(refused).toBeUndefined();
          expect(recorder.calls).toHaveLength(1);
          expect(recorder.calls[0]!.context.actor.id).toBe(person.id);
          expect((await stores.approvals.get(outcome.approvalId))?.decidedBy?.id).toBe(person.id);
        } else {
          expect(refused).toBeInstanceOf(ForbiddenError);
          expect(recorder.calls).toHaveLength(0);
          expect((await stores.approvals.get(outcome.approvalId))?.status).toBe('pending');
        }
      },
    ),
    { numRuns: 150 },
  );
}, 240_000);
