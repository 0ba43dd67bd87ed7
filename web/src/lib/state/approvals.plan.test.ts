// The approvals store with plans (docs/API.md, "Runs and plans"): each step of a running plan arrives as approval-decided
// with revision + 1; every viewer's card follows it to the end, then leaves with a notice; an edit of the steps is
// sent as one PATCH of `steps` with the revision shown.
import type { ApprovalJson, ListApprovalsResponse } from '@lumibase/shared';
import { describe, expect, it, vi } from 'vitest';
import type { SiteApi } from '../api/index.js';
import { approvalFixture } from '../testing/fixtures.js';
import { ApprovalsState } from './approvals.svelte.js';

type Step = ApprovalJson['steps'][number];
const bea = { id: 'u-bea', name: 'Bea Admin' };

function plan(revision: number, statuses: Step['status'][], overrides: Partial<ApprovalJson> = {}): ApprovalJson {
  return approvalFixture({
    id: 'p',
    skillName: 'plan',
    arguments: {},
    revision,
    steps: [
      { skillName: 'createCollection', arguments: { name: 'events' }, status: statuses[0] ?? 'planned' },
      {
        skillName: 'createField',
        arguments: { collection: 'events', field: { name: 'date', type: 'datetime' } },
        status: statuses[1] ?? 'planned',
      },
    ],
    ...overrides,
  });
}

const listing = (data: ApprovalJson[], total: number, seq: number): ListApprovalsResponse => ({ data, meta: { total, seq } });

describe('ApprovalsState with a plan', () => {
  it('keeps a running plan on every viewer’s list, step by step, then lets it leave with a notice when it is done', async () => {
    const api = { siteId: 's1', ai: { approvals: { list: async () => listing([plan(1, [])], 1, 1) } } } as unknown as SiteApi;
    const state = new ApprovalsState({ api, userId: () => 'u-ann', notify: vi.fn(), departureMs: 0 });
    await state.load();
    const running = { status: 'executing' as const, decidedBy: bea, attempts: 1 };
    state.handleDecided({ seq: 2, siteId: 's1', approval: plan(2, ['planned', 'planned'], running) });
    state.handleDecided({ seq: 3, siteId: 's1', approval: plan(3, ['running', 'planned'], running) });
    state.handleDecided({ seq: 4, siteId: 's1', approval: plan(4, ['done', 'running'], running) });
    expect(state.list.map((approval) => [approval.revision, approval.steps.map((step) => step.status)])).toEqual([
      [4, ['done', 'running']],
    ]);
    expect(state.total).toBe(0);
    state.handleDecided({ seq: 5, siteId: 's1', approval: plan(5, ['done', 'done'], { ...running, status: 'approved' }) });
    expect(state.list).toEqual([]);
    expect(state.approval('p')?.steps.map((step) => step.status)).toEqual(['done', 'done']);
    expect(state.departures.map(({ text }) => text)).toEqual([
      'A plan of 2 steps (creates the collection events, and 1 more) — Approved by Bea Admin; all 2 steps done.',
    ]);
  });

  it('sends an edit of the steps as one PATCH with the revision shown, null for a removed step', async () => {
    const edit = vi.fn(async () => plan(2, []));
    const api = { siteId: 's1', ai: { approvals: { edit } } } as unknown as SiteApi;
    const state = new ApprovalsState({ api, departureMs: 0 });
    const outcome = await state.edit('p', 1, { steps: [{ arguments: { name: 'events' } }, null] });
    expect(outcome.ok).toBe(true);
    expect(edit).toHaveBeenCalledExactlyOnceWith('p', { revision: 1, steps: [{ arguments: { name: 'events' } }, null] });
  });
});
