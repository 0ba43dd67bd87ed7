import type { ApprovalJson, ListApprovalsResponse } from '@lumibase/shared';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/api-error.js';
import type { SiteApi } from '../api/index.js';
import { approvalFixture } from '../testing/fixtures.js';
import { ApprovalsState } from './approvals.svelte.js';

type ApprovalsApi = SiteApi['ai']['approvals'];

function stateWith(approvals: Partial<ApprovalsApi>, { userId = 'u-me' } = {}) {
  const api = { siteId: 's1', ai: { approvals } } as unknown as SiteApi;
  const notify = vi.fn();
  const state = new ApprovalsState({ api, userId: () => userId, notify, departureMs: 0 });
  return { state, notify };
}

const listing = (data: ApprovalJson[], total: number, seq: number): ListApprovalsResponse => ({ data, meta: { total, seq } });

const bea = { id: 'u-bea', name: 'Bea Admin' };
const pending = (id: string, createdAt = '2030-01-01T10:00:00.000Z') => approvalFixture({ id, createdAt, updatedAt: createdAt });
const decided = (id: string, overrides: Partial<ApprovalJson>) =>
  approvalFixture({ id, decidedBy: bea, decidedAt: '2030-01-01T10:05:00.000Z', updatedAt: '2030-01-01T10:05:00.000Z', ...overrides });

describe('ApprovalsState', () => {
  it('starts the count from meta.total and keeps it by events: created +1, executing −1, failed +1, approved 0, rejected −1', async () => {
    const { state } = stateWith({ list: async () => listing([pending('a')], 7, 10) });
    await state.load();
    expect([state.total, state.seq, state.list.map(({ id }) => id)]).toEqual([7, 10, ['a']]);

    state.handleCreated({ seq: 11, siteId: 's1', approval: pending('b', '2030-01-01T11:00:00.000Z') });
    expect(state.total).toBe(8);
    expect(state.list.map(({ id }) => id)).toEqual(['b', 'a']);
    state.handleDecided({ seq: 12, siteId: 's1', approval: decided('b', { status: 'executing', attempts: 1 }) });
    expect(state.total).toBe(7);
    state.handleDecided({ seq: 13, siteId: 's1', approval: decided('b', { status: 'pending', lastError: 'boom', attempts: 1 }) });
    expect(state.total).toBe(8);
    state.handleDecided({ seq: 14, siteId: 's1', approval: decided('b', { status: 'executing', attempts: 2 }) });
    state.handleDecided({ seq: 15, siteId: 's1', approval: decided('b', { status: 'approved', attempts: 2 }) });
    state.handleDecided({ seq: 16, siteId: 's1', approval: decided('a', { status: 'rejected' }) });
    expect(state.total).toBe(6);
    expect(state.approval('b')?.status).toBe('approved');
    expect(state.list).toEqual([]);
  });

  it('ignores events the read already includes, and applies those that arrive during a read on top of it', async () => {
    let answer!: (response: ListApprovalsResponse) => void;
    const { state } = stateWith({ list: () => new Promise((resolve) => (answer = resolve)) });
    const loading = state.load();
    // Seq 5 is in the read (total 1 counts it); seq 6 is not.
    state.handleCreated({ seq: 5, siteId: 's1', approval: pending('a') });
    state.handleCreated({ seq: 6, siteId: 's1', approval: pending('b', '2030-01-01T11:00:00.000Z') });
    answer(listing([pending('a')], 1, 5));
    await loading;
    expect(state.total).toBe(2);
    expect(state.list.map(({ id }) => id)).toEqual(['b', 'a']);
    expect(state.seq).toBe(6);
    state.handleCreated({ seq: 6, siteId: 's1', approval: pending('b') });
    expect(state.total).toBe(2);
  });

  it('takes a card away when another admin decides it, with a notice naming who', async () => {
    const { state } = stateWith({ list: async () => listing([pending('a'), pending('b')], 2, 1) });
    await state.load();
    state.handleDecided({ seq: 2, siteId: 's1', approval: decided('a', { status: 'executing', attempts: 1 }) });
    state.handleDecided({ seq: 3, siteId: 's1', approval: decided('b', { status: 'rejected', reason: 'not today' }) });
    expect(state.list).toEqual([]);
    expect(state.departures.map(({ text }) => text)).toEqual([
      'Deletes the collection posts and all of its items — Approved by Bea Admin; running…',
      'Deletes the collection posts and all of its items — Rejected by Bea Admin: “not today”; nothing was changed.',
    ]);
    // The outcome of the one already gone adds no second notice.
    state.handleDecided({ seq: 4, siteId: 's1', approval: decided('a', { status: 'approved', attempts: 1 }) });
    expect(state.departures).toHaveLength(2);
  });

  it('says "you in another tab" when the decider is the signed-in user', async () => {
    const { state } = stateWith({ list: async () => listing([pending('a')], 1, 1) }, { userId: 'u-bea' });
    await state.load();
    state.handleDecided({ seq: 2, siteId: 's1', approval: decided('a', { status: 'rejected' }) });
    expect(state.departures[0]?.text).toBe(
      'Deletes the collection posts and all of its items — Rejected by you in another tab; nothing was changed.',
    );
  });

  it('after a 202 keeps the card executing until the outcome event, then announces it', async () => {
    const { state, notify } = stateWith({
      list: async () => listing([pending('a')], 1, 1),
      decide: async () => decided('a', { status: 'executing', attempts: 1 }),
    });
    await state.load();
    await state.decide('a', 'approved');
    expect(state.phase('a')).toBe('executing');
    expect(state.list.map(({ id }) => id)).toEqual(['a']);
    // This tab's own decision: the executing event keeps the card and adds no notice.
    state.handleDecided({ seq: 2, siteId: 's1', approval: decided('a', { status: 'executing', attempts: 1 }) });
    expect(state.list).toHaveLength(1);
    state.handleDecided({ seq: 3, siteId: 's1', approval: decided('a', { status: 'approved', attempts: 1 }) });
    expect(state.list).toEqual([]);
    expect(state.phase('a')).toBeUndefined();
    expect(state.departures).toEqual([]);
    expect(notify).toHaveBeenCalledWith(
      expect.objectContaining({ tone: 'success', title: 'Approved and done: Deletes the collection posts and all of its items' }),
    );
  });

  it('keeps a card whose execution failed, saying it is still pending', async () => {
    const { state } = stateWith({
      list: async () => listing([pending('a')], 1, 1),
      decide: async () => decided('a', { status: 'pending', lastError: 'posts is locked', attempts: 1 }),
    });
    await state.load();
    await state.decide('a', 'approved');
    expect(state.list.map(({ id }) => id)).toEqual(['a']);
    expect(state.note('a')).toEqual({ tone: 'warning', text: expect.stringMatching(/failed: posts is locked.*still pending/) });
  });

  it('explains a 409 as someone else deciding first, not as a failure', async () => {
    const { state } = stateWith({
      list: async () => listing([pending('a')], 1, 1),
      decide: async () => {
        throw new ApiError({ status: 409, code: 'CONFLICT', message: 'Approval is not pending' });
      },
      get: async () => decided('a', { status: 'rejected' }),
    });
    await state.load();
    await state.decide('a', 'approved');
    expect(state.list).toEqual([]);
    expect(state.note('a')).toBeUndefined();
    expect(state.departures[0]?.text).toBe(
      'Someone else decided first: Deletes the collection posts and all of its items — Rejected by Bea Admin; nothing was changed.',
    );
  });

  it('keeps the card for a 503 and a 403, with what to do about it', async () => {
    const decide = vi
      .fn()
      .mockRejectedValueOnce(new ApiError({ status: 503, code: 'UNAVAILABLE', message: 'queue down' }))
      .mockRejectedValueOnce(new ApiError({ status: 403, code: 'FORBIDDEN', message: 'no' }));
    const { state } = stateWith({ list: async () => listing([pending('a')], 1, 1), decide });
    await state.load();
    await state.decide('a', 'approved');
    expect(state.note('a')).toEqual({ tone: 'warning', text: expect.stringMatching(/job queue is unavailable/) });
    await state.decide('a', 'approved');
    expect(state.note('a')).toEqual({ tone: 'danger', text: expect.stringMatching(/every permission the change itself needs/) });
    expect(state.list).toHaveLength(1);
    expect(state.phase('a')).toBeUndefined();
  });

  it('on resync re-reads the list and the watched approvals that left it', async () => {
    const list = vi
      .fn()
      .mockResolvedValueOnce(listing([pending('a')], 1, 1))
      .mockResolvedValueOnce(listing([], 0, 9));
    const get = vi.fn(async () => decided('a', { status: 'approved', attempts: 1 }));
    const { state } = stateWith({ list, get });
    await state.load();
    state.watch('a');
    await state.resync();
    expect(state.total).toBe(0);
    expect(get).toHaveBeenCalledWith('a');
    expect(state.approval('a')?.status).toBe('approved');
  });
});
