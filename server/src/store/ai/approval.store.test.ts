import fc from 'fast-check';
import type { Approval } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepsOf } from './approval-document.js';
import { APPROVAL_LIST_LIMIT } from './approval.store.js';
import { approvalArbitrary, pendingApproval } from '../../../test-support/ai-arbitraries.js';
import { freshSiteId, openTestDatabase, type TestDatabase } from '../../../test-support/ai-test-database.js';
import { createTestStores } from '../../../test-support/test-stores.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

const approvalsOf = (siteId: string) => database.stores.forSite(siteId).approvals;

describe('ApprovalStore', () => {
  describe('property 15: round trip', () => {
    it('gives back any valid approval deep-equal, whatever its JSON arguments, result and dates', { timeout: 120_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(approvalArbitrary, async (approval) => {
          const store = approvalsOf(freshSiteId());
          const created = await store.insert(approval);
          const expected: Approval = { ...approval, id: created.id, siteId: store.siteId, revision: 1, steps: stepsOf(approval) };
          expect(created).toEqual(expected);
          const read = await store.get(created.id);
          expect(read).toEqual(expected);
          // -0 is not 0 to Object.is; toEqual checks it, this says so out loud for the arguments.
          expect(JSON.stringify(read!.arguments)).toBe(JSON.stringify(approval.arguments));
          expect(Date.parse(read!.createdAt)).toBe(Date.parse(approval.createdAt));
          expect(await store.list({ status: approval.status })).toEqual([expected]);
        }),
        { numRuns: 100 },
      );
    });

    it('keeps -0, $-prefixed and dotted keys, NUL bytes and lone surrogates in arguments', async () => {
      const store = approvalsOf(freshSiteId());
      const args = JSON.parse('{"$set":{"a.b":-0},"":["\\ud800",{"\\u0000":null}],"__proto__":{"x":1}}') as Record<string, unknown>;
      const created = await store.insert(pendingApproval({ arguments: args, result: { $inc: -0 } }));
      const read = await store.get(created.id);
      expect(read!.arguments).toEqual(args);
      expect(Object.is((read!.arguments.$set as { 'a.b': number })['a.b'], -0)).toBe(true);
      expect(Object.hasOwn(read!.arguments, '__proto__')).toBe(true);
      expect(read!.result).toEqual({ $inc: -0 });
    });
  });

  describe('context.readBefore', () => {
    it('keeps what the model read before proposing the call, and leaves it out when there is none', async () => {
      const store = approvalsOf(freshSiteId());
      const readBefore = [{ skill: 'listItems', collection: 'posts', id: '64b000000000000000000001' }, { skill: 'searchItems' }];
      const withReads = await store.insert(pendingApproval({ context: { message: 'tidy up', conversationId: 'c-1', readBefore } }));
      expect((await store.get(withReads.id))!.context).toEqual({ message: 'tidy up', conversationId: 'c-1', readBefore });
      const without = await store.insert(pendingApproval({ context: { message: 'tidy up' } }));
      expect((await store.get(without.id))!.context).toEqual({ message: 'tidy up' });
    });
  });

  describe('findPendingIdentical', () => {
    it('finds a pending approval of the same skill with deep-equal arguments, whatever their key order', async () => {
      const store = approvalsOf(freshSiteId());
      const created = await store.insert(pendingApproval({ skillName: 'deleteField', arguments: { collection: 'posts', field: 'title' } }));
      expect((await store.findPendingIdentical('deleteField', { field: 'title', collection: 'posts' }))?.id).toBe(created.id);
    });

    it('finds nothing for other arguments, another skill, another site, or an approval no longer pending', async () => {
      const store = approvalsOf(freshSiteId());
      const created = await store.insert(pendingApproval({ skillName: 'deleteField', arguments: { collection: 'posts', field: 'title' } }));
      expect(await store.findPendingIdentical('deleteField', { collection: 'posts', field: 'body' })).toBeNull();
      expect(await store.findPendingIdentical('deleteCollection', { collection: 'posts', field: 'title' })).toBeNull();
      expect(await approvalsOf(freshSiteId()).findPendingIdentical('deleteField', { collection: 'posts', field: 'title' })).toBeNull();
      await store.transition(created.id, { from: 'pending', to: 'rejected', at: new Date() });
      expect(await store.findPendingIdentical('deleteField', { collection: 'posts', field: 'title' })).toBeNull();
    });
  });

  describe('get', () => {
    it('treats malformed, unknown and other sites’ ids alike: absent', async () => {
      const store = approvalsOf(freshSiteId());
      const created = await store.insert(pendingApproval());
      expect(await store.get(created.id)).toEqual(created);
      for (const id of ['', 'abc', 'zzzzzzzzzzzzzzzzzzzzzzzz', `${created.id}0`, '000000000000000000000000', '{"$gt":""}']) {
        expect(await store.get(id)).toBeNull();
      }
      expect(await approvalsOf(freshSiteId()).get(created.id)).toBeNull();
    });
  });

  describe('list and count', () => {
    it('list at most 100 of the site’s approvals of one status, newest first, and count them all', async () => {
      const siteId = freshSiteId();
      const store = approvalsOf(siteId);
      const other = approvalsOf(freshSiteId());
      const base = Date.UTC(2025, 0, 1);
      const inserted: Approval[] = [];
      for (let index = 0; index < 105; index += 1) {
        // Shuffled creation times, some equal, so the order is the store's doing.
        const createdAt = new Date(base + ((index * 37) % 101) * 1000).toISOString();
        inserted.push(await store.insert(pendingApproval({ createdAt, updatedAt: createdAt })));
      }
      await store.insert(pendingApproval({ status: 'approved' }));
      await other.insert(pendingApproval());

      const listed = await store.list();
      expect(listed).toHaveLength(APPROVAL_LIST_LIMIT);
      expect(listed.every((approval) => approval.siteId === siteId && approval.status === 'pending')).toBe(true);
      for (let index = 1; index < listed.length; index += 1) {
        expect(Date.parse(listed[index - 1]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(listed[index]!.createdAt));
      }
      const newestFirst = [...inserted].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (b.id > a.id ? 1 : -1));
      expect(listed.map((approval) => approval.id)).toEqual(newestFirst.slice(0, 100).map((approval) => approval.id));
      expect(await store.count()).toBe(105);
      expect(await store.count({ status: 'approved' })).toBe(1);
      expect((await store.list({ status: 'approved' })).map((approval) => approval.status)).toEqual(['approved']);
      expect(await store.list({ limit: 5 })).toHaveLength(5);
      const withTotal = await store.listWithTotal();
      expect(withTotal.total).toBe(105);
      expect(withTotal.approvals.map((approval) => approval.id)).toEqual(listed.map((approval) => approval.id));
    });

    it('lists with the total in one read when every approval of the status fits in the list, and counts only beyond', async () => {
      const watched = await database.watch();
      try {
        const siteId = freshSiteId();
        const store = (await createTestStores(watched.connection)).aiStores.forSite(siteId).approvals;
        for (let index = 0; index < APPROVAL_LIST_LIMIT; index += 1) await store.insert(pendingApproval());
        watched.take();
        const full = await store.listWithTotal();
        expect(full.total).toBe(APPROVAL_LIST_LIMIT);
        expect(full.approvals).toHaveLength(APPROVAL_LIST_LIMIT);
        expect(watched.take()).toEqual(['find ai_approvals']);
        expect(await store.listWithTotal({ status: 'approved' })).toEqual({ approvals: [], total: 0 });
        watched.take();

        await store.insert(pendingApproval());
        watched.take();
        const beyond = await store.listWithTotal();
        expect(beyond.total).toBe(APPROVAL_LIST_LIMIT + 1);
        expect(beyond.approvals).toHaveLength(APPROVAL_LIST_LIMIT);
        expect(watched.take()).toEqual(['find ai_approvals', 'aggregate ai_approvals']);
      } finally {
        await watched.close();
      }
    });
  });

  describe('transition', () => {
    it('applies a change only from the expected status and only in its own site', async () => {
      const store = approvalsOf(freshSiteId());
      const { id } = await store.insert(pendingApproval());
      const at = new Date('2025-02-02T00:00:00.000Z');
      const decidedBy = { id: 'u2', name: 'Grace' };
      expect(await approvalsOf(freshSiteId()).transition(id, { from: 'pending', to: 'rejected', at })).toBeNull();
      expect(await store.transition(id, { from: 'executing', to: 'approved', at })).toBeNull();
      expect(await store.transition('nope', { from: 'pending', to: 'executing', at })).toBeNull();

      const executing = await store.transition(id, {
        from: 'pending',
        to: 'executing',
        at,
        set: { decidedBy, decidedAt: at.toISOString() },
        incrementAttempts: true,
      });
      expect(executing).toMatchObject({
        status: 'executing',
        attempts: 1,
        decidedBy,
        decidedAt: at.toISOString(),
        updatedAt: at.toISOString(),
      });
      const failed = await store.transition(id, {
        from: 'executing',
        to: 'pending',
        at,
        set: { lastError: 'boom' },
        unset: ['decidedBy', 'decidedAt'],
      });
      expect(failed).toMatchObject({ status: 'pending', attempts: 1, lastError: 'boom' });
      expect(failed).not.toHaveProperty('decidedBy');
      expect(failed).not.toHaveProperty('decidedAt');
      await store.transition(id, { from: 'pending', to: 'executing', at, incrementAttempts: true });
      const approved = await store.transition(id, {
        from: 'executing',
        to: 'approved',
        at,
        set: { result: { deleted: 'posts', $meta: [-0] } },
        unset: ['lastError'],
      });
      expect(approved).toMatchObject({ status: 'approved', attempts: 2, result: { deleted: 'posts', $meta: [-0] } });
      expect(approved).not.toHaveProperty('lastError');
      expect(await store.get(id)).toEqual(approved);
    });

    it('refuses a move the lifecycle table does not allow, and changes nothing', async () => {
      const store = approvalsOf(freshSiteId());
      const { id } = await store.insert(pendingApproval());
      const at = new Date();
      await expect(store.transition(id, { from: 'pending', to: 'approved', at })).rejects.toThrow(/cannot move from pending to approved/);
      await store.transition(id, { from: 'pending', to: 'rejected', at });
      await expect(store.transition(id, { from: 'rejected', to: 'pending', at })).rejects.toThrow(/cannot move from rejected to pending/);
      expect(await store.get(id)).toMatchObject({ status: 'rejected', revision: 2 });
    });

    it('handed a read that has moved on, computes the change from the stored approval (or does not land when pinned to it)', async () => {
      const store = approvalsOf(freshSiteId());
      const read = await store.insert(pendingApproval());
      const at = new Date();
      // Moved on since `read`: a new revision with other arguments (an edit).
      const edited = await store.transition(read.id, { from: 'pending', to: 'pending', at, set: { arguments: { name: 'edited' } } });
      expect(edited?.revision).toBe(2);
      // The stale read is not what the change is computed from: it lands on revision 2, with the edited arguments.
      const executing = await store.transition(read.id, { from: 'pending', to: 'executing', at, incrementAttempts: true }, read);
      expect(executing).toMatchObject({ status: 'executing', revision: 3, arguments: { name: 'edited' } });
      expect(await store.get(read.id)).toEqual(executing);
      // Pinned to the stale revision, it does not land at all.
      const other = await store.insert(pendingApproval());
      await store.transition(other.id, { from: 'pending', to: 'pending', at, set: { arguments: { name: 'edited' } } });
      expect(await store.transition(other.id, { from: 'pending', to: 'rejected', at, revision: 1 }, other)).toBeNull();
      // Fresh: one write, and the event it owes shows the approval as stored.
      const fresh = await store.get(other.id);
      const rejected = await store.transition(other.id, { from: 'pending', to: 'rejected', at, revision: 2 }, fresh!);
      expect(rejected).toMatchObject({ status: 'rejected', revision: 3, arguments: { name: 'edited' } });
      expect(await store.get(other.id)).toEqual(rejected);
    });

    it('lets exactly one of many simultaneous transitions from pending win', async () => {
      const store = approvalsOf(freshSiteId());
      const { id } = await store.insert(pendingApproval());
      const at = new Date();
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          store.transition(
            id,
            index % 2 ? { from: 'pending', to: 'executing', at, incrementAttempts: true } : { from: 'pending', to: 'rejected', at },
          ),
        ),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      const final = await store.get(id);
      expect(final!.attempts).toBe(final!.status === 'executing' ? 1 : 0);
    });
  });

  describe('pendingTargets', () => {
    it("gives every pending approval's id and target in the site, beyond the list's 100, and nothing else", async () => {
      const siteId = freshSiteId();
      const store = approvalsOf(siteId);
      const target = (name: string) => ({ kind: 'collection' as const, collection: name, collectionId: '64b000000000000000000001' });
      const pending = [];
      for (let index = 0; index <= APPROVAL_LIST_LIMIT; index++)
        pending.push(await store.insert(pendingApproval({ target: target(`c${index}`) })));
      await store.insert(pendingApproval({ target: target('settled'), status: 'rejected' }));
      await store.insert(pendingApproval({ target: undefined }));
      await approvalsOf(freshSiteId()).insert(pendingApproval({ target: target('elsewhere') }));
      const targets = await store.pendingTargets();
      expect(targets).toHaveLength(APPROVAL_LIST_LIMIT + 1);
      expect(new Map(targets.map(({ id, target }) => [id, target]))).toEqual(
        new Map(pending.map((approval) => [approval.id, approval.target])),
      );
    });
  });

  it('cannot be built without a site', () => {
    expect(() => database.stores.forSite('')).toThrow(TypeError);
  });
});
