// The /ai routes' properties (docs/PROPERTIES.md 9–12: chat validation, the approvals list, the tenant wall,
// decisions) on the real router over HTTP, the real harness and stores over the wire.
import { APPROVAL_STATUSES, type ApprovalJson, type ApprovalStatus, CAPABILITIES } from '@lumibase/shared';
import fc from 'fast-check';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingExecutors, type ExecutorRun } from '../../test-support/counting-executors.js';
import { pendingApproval } from '../../test-support/ai-arbitraries.js';
import { startTestServer, type TestServer, withoutRequestId } from '../../test-support/test-server.js';

const RUNS = { numRuns: 100 };
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type Member = { id: string; token: string };

let server: TestServer;
let siteId: string;
let otherSiteId: string;
let admins: [Member, Member];
const runs: ExecutorRun[] = [];

beforeAll(async () => {
  server = await startTestServer(
    'ai-properties',
    { CHAT_RATE_LIMIT_PER_MINUTE: '10000' },
    { executors: (real) => countingExecutors(real, runs) },
  );
  siteId = await server.createSite('Properties');
  otherSiteId = await server.createSite('Other properties');
  admins = [await server.createMember({ siteId, role: 'admin' }), await server.createMember({ siteId, role: 'admin' })];
});
afterAll(async () => server?.close());

const copilotStores = () => server.composed.copilot.stores;

/** What one member has stored in the site: conversations and messages (all of them, any user). */
async function storedIn(site: string, userId: string) {
  const { conversations } = copilotStores().forSite(site);
  const messages = await copilotStores().models.messages.countDocuments({ siteId: site });
  return { conversations: await conversations.countForUser(userId), messages };
}

describe('chat validation', () => {
  const whitespace = fc.constantFrom(' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u2003', '\u2028', '\u3000', '\ufeff');
  const padding = fc.string({ unit: whitespace, maxLength: 4 });
  const nearTheLimit = fc
    .integer({ min: 1995, max: 2005 })
    .chain((length) => fc.string({ unit: fc.constantFrom('a', 'é', '中', ' ', '\n'), minLength: length, maxLength: length }));
  const core = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.string({ unit: whitespace, maxLength: 6 }),
    fc.constantFrom('', '\u200b', 'list collections', 'x'),
    nearTheLimit,
  );
  const textMessage = fc.tuple(padding, core, padding).map(([before, text, after]) => before + text + after);
  const otherValue = fc.oneof(
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
    fc.object({ maxDepth: 1 }),
  );
  const body = fc.oneof(
    { weight: 6, arbitrary: textMessage.map((message) => ({ message }) as Record<string, unknown>) },
    { weight: 1, arbitrary: otherValue.map((message) => ({ message }) as Record<string, unknown>) },
    { weight: 1, arbitrary: fc.constant({} as Record<string, unknown>) },
  );

  it('accepts a message iff 1 ≤ its trimmed length ≤ 2000; otherwise 400 VALIDATION_FAILED and nothing is stored', async () => {
    const [member] = admins;
    await fc.assert(
      fc.asyncProperty(body, async (sent) => {
        const before = await storedIn(siteId, member.id);
        const response = await server.request('POST', '/ai/chat', { token: member.token, siteId, body: sent });
        const after = await storedIn(siteId, member.id);
        const message = sent.message;
        const valid = typeof message === 'string' && message.trim().length >= 1 && message.trim().length <= 2000;
        if (valid) {
          expect(response.status).toBe(200);
          expect(after).toEqual({ conversations: before.conversations + 1, messages: before.messages + 2 });
          const conversationId = response.body.data.conversationId as string;
          const [stored] = await copilotStores().forSite(siteId).conversations.listMessages(conversationId, { limit: 1 });
          // BSON strings cannot hold lone surrogates; every other message is stored exactly, trimmed.
          if (!LONE_SURROGATE.test(message)) expect(stored!.content).toBe(message.trim());
        } else {
          expect(response.status).toBe(400);
          expect(response.body.error.code).toBe('VALIDATION_FAILED');
          expect(response.body.error.details.length).toBeGreaterThan(0);
          for (const detail of response.body.error.details) expect(detail.path).toBe('message');
          expect(after).toEqual(before);
        }
      }),
      RUNS,
    );
  });
});

describe('the approvals list', () => {
  const approvalSpec = fc.record({
    where: fc.constantFrom('current', 'other', 'unknown'),
    status: fc.constantFrom(...APPROVAL_STATUSES),
    second: fc.integer({ min: 0, max: 40 }),
  });
  const scenario = fc.record({
    mixed: fc.array(approvalSpec, { maxLength: 30 }),
    // Sometimes more than 100 pending in the current site, to test the cap.
    extraPending: fc.oneof({ weight: 8, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 90, max: 125 }) }),
    query: fc.option(fc.constantFrom(...APPROVAL_STATUSES), { nil: undefined }),
  });

  it('returns only the current site’s approvals in the asked status (pending by default), at most 100, createdAt descending', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ mixed, extraPending, query }) => {
        const current = (await server.composed.stores.sites.create('Property 10')).id;
        const unknownSite = new Types.ObjectId().toHexString();
        const specs = [
          ...mixed,
          ...Array.from({ length: extraPending }, (_, index) => ({
            where: 'current',
            status: 'pending' as ApprovalStatus,
            second: index % 50,
          })),
        ];
        const inserted = await Promise.all(
          specs.map(async ({ where, status, second }) => {
            const site = where === 'current' ? current : where === 'other' ? otherSiteId : unknownSite;
            const at = new Date(Date.UTC(2025, 0, 1, 0, 0, second)).toISOString();
            const approval = await copilotStores()
              .forSite(site)
              .approvals.insert(pendingApproval({ status, createdAt: at, updatedAt: at }));
            return { ...approval, where };
          }),
        );
        const status = query ?? 'pending';
        const response = await server.request('GET', `/ai/approvals${query ? `?status=${query}` : ''}`, {
          token: server.adminToken,
          siteId: current,
        });
        expect(response.status).toBe(200);
        const matching = inserted.filter((approval) => approval.where === 'current' && approval.status === status);
        const expected = [...matching]
          .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? 1 : -1))
          .slice(0, 100)
          .map((approval) => approval.id);
        const listed = response.body.data as ApprovalJson[];
        expect(listed.map((approval) => approval.id)).toEqual(expected);
        expect(listed.length).toBeLessThanOrEqual(100);
        for (const approval of listed) expect(approval).toMatchObject({ siteId: current, status });
        const times = listed.map((approval) => Date.parse(approval.createdAt));
        for (let index = 1; index < times.length; index += 1) expect(times[index]!).toBeLessThanOrEqual(times[index - 1]!);
        // Every approval owes its site an event: seq is the site's latest, as the event log has it.
        const seq = await server.composed.domain.eventLog.forSite(current).currentSeq();
        expect(response.body.meta).toEqual({ total: matching.length, seq });
      }),
      RUNS,
    );
    // Each inserted approval also appends its event to the site's log: a few thousand writes in all.
  }, 180_000);
});

describe('the tenant wall', () => {
  const outsideId = fc.oneof(
    fc.record({ kind: fc.constant('other-site' as const), status: fc.constantFrom(...APPROVAL_STATUSES) }),
    fc.stringMatching(/^[0-9a-f]{24}$/).map((id) => ({ kind: 'unknown' as const, id })),
    fc
      .string({ minLength: 1, maxLength: 40, unit: 'binary' })
      .filter((id) => id !== '.' && id !== '..' && !/^[0-9a-fA-F]{24}$/.test(id))
      .map((id) => ({ kind: 'malformed' as const, id })),
  );
  const decision = fc.constantFrom('approved', 'rejected');

  it('answers GET and decide for any approval id outside the caller’s site with 403 and one body (requestId aside)', async () => {
    const [member] = admins;
    const as = { token: member.token, siteId };
    const referenceGet = await server.request('GET', '/ai/approvals/ffffffffffffffffffffffff', as);
    const referenceDecide = await server.request('POST', '/ai/approvals/ffffffffffffffffffffffff/decide', {
      ...as,
      body: { decision: 'approved' },
    });
    expect([referenceGet.status, referenceDecide.status]).toEqual([403, 403]);
    await fc.assert(
      fc.asyncProperty(outsideId, decision, async (target, chosen) => {
        let id: string;
        if (target.kind === 'other-site') {
          id = (
            await copilotStores()
              .forSite(otherSiteId)
              .approvals.insert(pendingApproval({ status: target.status }))
          ).id;
        } else id = target.id;
        const path = `/ai/approvals/${encodeURIComponent(id)}`;
        const read = await server.request('GET', path, as);
        const decided = await server.request('POST', `${path}/decide`, { ...as, body: { decision: chosen } });
        expect(read.status).toBe(403);
        expect(decided.status).toBe(403);
        expect(withoutRequestId(read.body)).toEqual(withoutRequestId(referenceGet.body));
        expect(withoutRequestId(decided.body)).toEqual(withoutRequestId(referenceDecide.body));
        expect(read.body.error.requestId).not.toBe(referenceGet.body.error.requestId);
        if (target.kind === 'other-site') {
          const after = await copilotStores().forSite(otherSiteId).approvals.get(id);
          expect(after).toMatchObject({ status: target.status, attempts: 0 });
          expect(runs.filter((run) => run.operationId === id)).toEqual([]);
        }
      }),
      RUNS,
    );
  });
});

describe('decisions', () => {
  const decisionArbitrary = fc.record({ who: fc.constantFrom(0, 1), decision: fc.constantFrom('approved' as const, 'rejected' as const) });
  const scenario = fc.record({
    // Batches run one after another; the decisions inside a batch race each other.
    batches: fc.array(fc.array(decisionArbitrary, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }),
    // A collection of the same name already there makes each run fail (pending again), until it is removed.
    blocked: fc.boolean(),
    unblockBefore: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  });
  let counter = 0;

  it('takes effect at most once, answers 409 once the approval is not pending, and never runs a rejected approval', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ batches, blocked, unblockBefore }) => {
        counter += 1;
        const name = `decided_${counter}`;
        const { collections } = server.composed.services;
        if (blocked) await collections.create(siteId, { name });
        const outcome = await server.composed.copilot.harness.execute(
          {
            siteId,
            actor: { id: admins[0].id, name: 'Requester', capabilities: [...CAPABILITIES], isSuperadmin: false },
            message: `create collection ${name}`,
          },
          { name: 'createCollection', arguments: { name } },
        );
        if (outcome.status !== 'pending_approval') throw new Error(`expected an approval, got ${outcome.status}`);
        const id = outcome.approvalId;

        const answers: { batch: number; decision: string; status: number; approval?: ApprovalJson; code?: string }[] = [];
        for (const [batch, decisions] of batches.entries()) {
          if (blocked && unblockBefore === batch) await collections.remove(siteId, name).catch(() => undefined);
          const responses = await Promise.all(
            decisions.map(({ who, decision }) =>
              server.request('POST', `/ai/approvals/${id}/decide`, { token: admins[who].token, siteId, body: { decision } }),
            ),
          );
          for (const [index, response] of responses.entries()) {
            answers.push({
              batch,
              decision: decisions[index]!.decision,
              status: response.status,
              ...(response.status === 200 ? { approval: response.body.data } : { code: response.body.error?.code }),
            });
          }
        }

        for (const answer of answers) {
          expect([200, 409]).toContain(answer.status);
          if (answer.status === 409) expect(answer.code).toBe('CONFLICT');
        }
        const ownRuns = runs.filter((run) => run.operationId === id);
        const successes = ownRuns.filter((run) => run.ok).length;
        const approveWins = answers.filter((answer) => answer.status === 200 && answer.decision === 'approved');
        const rejectWins = answers.filter((answer) => answer.status === 200 && answer.decision === 'rejected');
        const final = (await server.request('GET', `/ai/approvals/${id}`, { token: admins[0].token, siteId })).body.data as ApprovalJson;

        // At most once, and each approve that won the compare-and-set ran exactly once.
        expect(successes).toBeLessThanOrEqual(1);
        expect(ownRuns).toHaveLength(approveWins.length);
        expect(final.attempts).toBe(approveWins.length);
        expect(await copilotStores().models.audit.countDocuments({ siteId, approvalId: id, action: 'approved' })).toBe(successes);
        // A rejected approval never executes, and nothing wins after it.
        if (rejectWins.length > 0) {
          expect(rejectWins).toHaveLength(1);
          expect(successes).toBe(0);
          expect(final.status).toBe('rejected');
        }
        if (successes === 1) expect(final.status).toBe('approved');
        // Once an answer is final (approved or rejected), every later batch gets only 409s.
        const terminal = answers.find((answer) => answer.approval && ['approved', 'rejected'].includes(answer.approval.status));
        if (terminal) expect(answers.filter((answer) => answer.batch > terminal.batch && answer.status !== 409)).toEqual([]);
        if (!blocked) {
          expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
          const exists = (await collections.listAll(siteId)).some((collection) => collection.name === name);
          expect(exists).toBe(final.status === 'approved');
        }
      }),
      RUNS,
    );
    // A hundred scenarios, each deciding through the real BullMQ queue and worker: allow for a loaded machine.
  }, 180_000);
});
