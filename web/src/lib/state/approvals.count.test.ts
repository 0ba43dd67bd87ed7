// The pending badge (docs/API.md: `meta.total` counts every pending approval, the list holds at most 100) kept by events:
// an approval this tab never saw moves the count only by what the lifecycle says it must have been.
import type { ApprovalJson, ListApprovalsResponse } from '@lumibase/shared';
import { describe, expect, it } from 'vitest';
import type { SiteApi } from '../api/index.js';
import { approvalFixture } from '../testing/fixtures.js';
import { ApprovalsState } from './approvals.svelte.js';

async function loaded(data: ApprovalJson[], total: number) {
  const list = async (): Promise<ListApprovalsResponse> => ({ data, meta: { total, seq: 1 } });
  const state = new ApprovalsState({ api: { siteId: 's1', ai: { approvals: { list } } } as unknown as SiteApi, departureMs: 0 });
  await state.load();
  return state;
}

const unseen = (status: ApprovalJson['status'], revision: number) =>
  approvalFixture({ id: 'x', status, revision, attempts: 1, updatedAt: '2030-01-01T10:05:00.000Z' });

describe('the pending count and approvals this tab never saw', () => {
  it('takes nothing off for one that was executing when the list was read and then expired', async () => {
    const state = await loaded([approvalFixture({ id: 'a' })], 1);
    state.handleDecided({ seq: 2, siteId: 's1', approval: unseen('expired', 3) });
    expect(state.total).toBe(1);
  });

  it('takes nothing off for a plan that was running when the list was read and moves on a step', async () => {
    const state = await loaded([approvalFixture({ id: 'a' })], 1);
    state.handleDecided({ seq: 2, siteId: 's1', approval: unseen('executing', 3) });
    state.handleDecided({ seq: 3, siteId: 's1', approval: unseen('approved', 4) });
    expect(state.total).toBe(1);
  });

  it('takes one off for one past the list’s first page that is rejected, and counts one back after a failed run', async () => {
    const state = await loaded([approvalFixture({ id: 'a' })], 150);
    state.handleDecided({ seq: 2, siteId: 's1', approval: unseen('rejected', 2) });
    expect(state.total).toBe(149);
    state.handleDecided({
      seq: 3,
      siteId: 's1',
      approval: approvalFixture({ id: 'y', status: 'pending', lastError: 'boom', revision: 3 }),
    });
    expect(state.total).toBe(150);
  });
});
