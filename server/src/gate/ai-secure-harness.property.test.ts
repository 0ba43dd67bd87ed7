// Properties 1, 2, 3, 5, 6 and 8 of docs/PROPERTIES.md on the real harness over the real stores (over the wire).
import fc from 'fast-check';
import { APPROVAL_STATUSES, type CapabilityHolder, SKILL_NAMES, type SkillOutcome, WILDCARD, isDangerous } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSiteId, openTestDatabase, type TestDatabase } from '../../test-support/ai-test-database.js';
import { AISecureHarness, type HarnessContext } from './ai-secure-harness.js';
import {
  DANGEROUS_SKILLS,
  SAFE_SKILLS,
  actorWith,
  authorisedHolderArbitrary,
  capabilityHolderArbitrary,
  invalidCallArbitrary,
  messageArbitrary,
  unknownNameArbitrary,
  validCallArbitrary,
} from '../../test-support/harness-arbitraries.js';
import { type RecordingExecutors, recordingExecutors } from '../../test-support/recording-executors.js';
import { NO_TARGETS } from '../skills/approval-targets.js';

const RUNS = { numRuns: 100 };

let database: TestDatabase;
let recorder: RecordingExecutors;
let harness: AISecureHarness;

beforeAll(async () => {
  database = await openTestDatabase();
  recorder = recordingExecutors();
  harness = new AISecureHarness({ targets: NO_TARGETS, stores: database.stores, executors: recorder.executors });
});
afterAll(() => database?.close());

function contextFor(holder: CapabilityHolder, message: string): HarnessContext {
  return { siteId: freshSiteId(), actor: actorWith(holder), message };
}

/** Everything the call left in its (fresh) site. */
async function traces(siteId: string) {
  const { approvals, audit } = database.stores.forSite(siteId);
  const approvalsByStatus = await Promise.all(APPROVAL_STATUSES.map((status) => approvals.list({ status })));
  return { approvals: approvalsByStatus.flat(), audit: await audit.list({ limit: 100 }) };
}

const AUDIT_ACTION_OF: Record<SkillOutcome['status'], string> = {
  executed: 'executed',
  pending_approval: 'approval_requested',
  denied: 'denied',
};

describe('AISecureHarness', () => {
  it('property 1: denies any name that is not a skill, executes nothing, creates no approval, audits once', async () => {
    await fc.assert(
      fc.asyncProperty(
        unknownNameArbitrary,
        fc.anything(),
        capabilityHolderArbitrary,
        messageArbitrary(),
        async (name, args, holder, message) => {
          recorder.reset();
          const context = contextFor(holder, message);
          const outcome = await harness.execute(context, { name, arguments: args });
          expect(outcome).toMatchObject({ status: 'denied', reason: 'unknown_skill' });
          if (outcome.status === 'denied') for (const skillName of SKILL_NAMES) expect(outcome.message).toContain(skillName);
          expect(recorder.calls).toHaveLength(0);
          const { approvals, audit } = await traces(context.siteId);
          expect(approvals).toHaveLength(0);
          expect(audit.map((entry) => entry.action)).toEqual(['denied']);
        },
      ),
      RUNS,
    );
  });

  it('property 2: denies arguments that fail the schema with the failing paths, and never calls the executor', async () => {
    await fc.assert(
      fc.asyncProperty(invalidCallArbitrary(), messageArbitrary(), async (call, message) => {
        recorder.reset();
        // A superadmin: the arguments alone decide.
        const context = contextFor({ capabilities: [WILDCARD], isSuperadmin: true }, message);
        const outcome = await harness.execute(context, { name: call.skill.name, arguments: call.arguments });
        expect(outcome).toMatchObject({ status: 'denied', reason: 'invalid_arguments' });
        if (outcome.status !== 'denied') return;
        expect(outcome.details?.length).toBeGreaterThan(0);
        // Every path starts at an argument the schema defines or the call gave (keys may hold dots).
        const known = [...Object.keys(call.skill.parameters.shape), ...Object.keys(Object(call.arguments))];
        const under = (path: string, key: string) => path === key || path.startsWith(`${key}.`);
        for (const { path } of outcome.details!) expect(path === '' || known.some((key) => under(path, key))).toBe(true);
        if (call.brokenKey) expect(outcome.details!.some(({ path }) => under(path, call.brokenKey!))).toBe(true);
        expect(recorder.calls).toHaveLength(0);
        const { approvals, audit } = await traces(context.siteId);
        expect(approvals).toHaveLength(0);
        expect(audit).toHaveLength(1);
        expect(audit[0]).toMatchObject({ action: 'denied', skillName: call.skill.name, detail: { details: outcome.details } });
      }),
      RUNS,
    );
  });

  it('property 3: proceeds iff the caller holds every required capability, or is a superadmin holding *', async () => {
    await fc.assert(
      fc.asyncProperty(validCallArbitrary(), capabilityHolderArbitrary, messageArbitrary(), async (call, holder, message) => {
        recorder.reset();
        const context = contextFor(holder, message);
        const outcome = await harness.execute(context, { name: call.skill.name, arguments: call.arguments });
        const allowed =
          (holder.isSuperadmin && holder.capabilities.includes(WILDCARD)) ||
          call.skill.requiredCapabilities.every((capability) => holder.capabilities.includes(capability));
        if (allowed) {
          expect(outcome.status).toBe(isDangerous(call.skill) ? 'pending_approval' : 'executed');
        } else {
          expect(outcome).toMatchObject({ status: 'denied', reason: 'missing_capabilities' });
          expect(recorder.calls).toHaveLength(0);
          expect((await traces(context.siteId)).approvals).toHaveLength(0);
        }
      }),
      RUNS,
    );
  });

  it('property 3: grants nothing for * held by someone who is not a superadmin', async () => {
    await fc.assert(
      fc.asyncProperty(validCallArbitrary(), messageArbitrary(), async (call, message) => {
        recorder.reset();
        const context = contextFor({ capabilities: [WILDCARD], isSuperadmin: false }, message);
        const outcome = await harness.execute(context, { name: call.skill.name, arguments: call.arguments });
        expect(outcome).toMatchObject({ status: 'denied', reason: 'missing_capabilities' });
        expect(recorder.calls).toHaveLength(0);
      }),
      RUNS,
    );
  });

  it('property 5: executes an authorised safe call once, with its arguments, and creates no approval', async () => {
    const safeCall = validCallArbitrary(SAFE_SKILLS).chain((call) =>
      authorisedHolderArbitrary(call.skill).map((holder) => ({ call, holder })),
    );
    await fc.assert(
      fc.asyncProperty(safeCall, fc.jsonValue(), messageArbitrary(), async ({ call, holder }, result, message) => {
        recorder.reset();
        recorder.behaviour.result = result;
        const context = contextFor(holder, message);
        const outcome = await harness.execute(context, { name: call.skill.name, arguments: call.arguments });
        expect(outcome).toEqual({ status: 'executed', skill: { name: call.skill.name, arguments: call.arguments }, data: result });
        expect(recorder.calls).toHaveLength(1);
        expect(recorder.calls[0]).toEqual({
          name: call.skill.name,
          args: call.arguments,
          context: {
            siteId: context.siteId,
            actor: { id: context.actor.id, name: context.actor.name },
            operationId: expect.any(String),
            firstRun: true,
            via: 'copilot',
          },
        });
        const { approvals, audit } = await traces(context.siteId);
        expect(approvals).toHaveLength(0);
        expect(audit.map((entry) => entry.action)).toEqual(['executed']);
      }),
      RUNS,
    );
  });

  it('property 6: gates an authorised dangerous call as one pending approval holding exactly its arguments', {
    timeout: 120_000,
  }, async () => {
    const dangerousCall = validCallArbitrary(DANGEROUS_SKILLS).chain((call) =>
      authorisedHolderArbitrary(call.skill).map((holder) => ({ call, holder })),
    );
    await fc.assert(
      fc.asyncProperty(
        dangerousCall,
        messageArbitrary(),
        fc.option(fc.constant('6650f0c2a1b2c3d4e5f60718'), { nil: undefined }),
        async ({ call, holder }, message, conversationId) => {
          recorder.reset();
          const context = { ...contextFor(holder, message), ...(conversationId ? { conversationId } : {}) };
          const outcome = await harness.execute(context, { name: call.skill.name, arguments: call.arguments });
          expect(outcome.status).toBe('pending_approval');
          expect(recorder.calls).toHaveLength(0);
          const { approvals, audit } = await traces(context.siteId);
          expect(approvals).toHaveLength(1);
          const [approval] = approvals;
          expect(outcome).toMatchObject({ approvalId: approval!.id, skill: { name: call.skill.name, arguments: call.arguments } });
          expect(approval).toMatchObject({
            siteId: context.siteId,
            skillName: call.skill.name,
            status: 'pending',
            context: conversationId ? { message, conversationId } : { message },
            requestedBy: { id: context.actor.id, name: context.actor.name },
            attempts: 0,
          });
          expect(approval!.arguments).toEqual(call.arguments);
          expect(audit).toHaveLength(1);
          expect(audit[0]).toMatchObject({ action: 'approval_requested', approvalId: approval!.id, skillName: call.skill.name });
        },
      ),
      RUNS,
    );
  });

  it('property 8: leaves exactly one audit entry per call, whose action matches the answer', async () => {
    const anyCall = fc.oneof(
      fc.record({ name: unknownNameArbitrary, arguments: fc.anything() }),
      invalidCallArbitrary().map((call) => ({ name: call.skill.name as string, arguments: call.arguments })),
      validCallArbitrary().map((call) => ({ name: call.skill.name as string, arguments: call.arguments as unknown })),
    );
    const executorBehaviour = fc.oneof(
      fc.record({ result: fc.jsonValue() }),
      fc.constant({ error: new Error('driver exploded') }),
      fc.constant({ error: { not: 'an Error' } }),
    );
    await fc.assert(
      fc.asyncProperty(
        anyCall,
        capabilityHolderArbitrary,
        executorBehaviour,
        messageArbitrary(),
        async (call, holder, behaviour, message) => {
          recorder.reset();
          recorder.behaviour = behaviour;
          const context = contextFor(holder, message);
          const outcome = await harness.execute(context, call);
          const { audit } = await traces(context.siteId);
          expect(audit).toHaveLength(1);
          expect(audit[0]!.action).toBe(AUDIT_ACTION_OF[outcome.status]);
          expect(audit[0]!.actor).toEqual({ id: context.actor.id, name: context.actor.name });
        },
      ),
      RUNS,
    );
  });
});
