// The later of two copies of an approval is the one of the higher revision (docs/API.md: every change moves it), whatever
// their updatedAt says and whichever arrives last.
import type { ApprovalJson, ListApprovalsResponse } from '@lumibase/shared';
import { describe, expect, it } from 'vitest';
import type { SiteApi } from '../api/index.js';
import { approvalFixture } from '../testing/fixtures.js';
import { isNewer } from './approval-revision.js';
import { ApprovalsState } from './approvals.svelte.js';

const at = '2030-01-01T10:05:00.000Z';
const copy = (revision: number, overrides: Partial<ApprovalJson> = {}) =>
  approvalFixture({ id: 'a', revision, updatedAt: at, ...overrides });

describe('isNewer', () => {
  it('takes the higher revision as the later state when both were changed within the same millisecond', () => {
    const edited = copy(2, { arguments: { name: 'pages' } });
    const editedAgain = copy(3, { arguments: { name: 'notes' } });
    expect(isNewer(editedAgain, edited)).toBe(true);
    expect(isNewer(edited, editedAgain)).toBe(false);
  });

  it('keeps a later revision against an older one that arrives late, even one stamped later by another clock', () => {
    const approved = copy(4, { status: 'approved', attempts: 1, updatedAt: '2030-01-01T10:05:00.000Z' });
    const lateReply = copy(3, { status: 'executing', attempts: 1, updatedAt: '2030-01-01T10:05:02.000Z' });
    expect(isNewer(approved, lateReply)).toBe(true);
    expect(isNewer(lateReply, approved)).toBe(false);
  });

  it('calls neither copy newer at the same revision', () => {
    expect(isNewer(copy(2), copy(2))).toBe(false);
  });
});

describe('ApprovalsState and a reply that races an event', () => {
  it('keeps the newer revision an event brought over an edit reply that arrives after it', async () => {
    let answer!: (approval: ApprovalJson) => void;
    const api = {
      siteId: 's1',
      ai: {
        approvals: {
          list: async (): Promise<ListApprovalsResponse> => ({ data: [copy(1)], meta: { total: 1, seq: 1 } }),
          edit: () => new Promise<ApprovalJson>((resolve) => (answer = resolve)),
        },
      },
    } as unknown as SiteApi;
    const state = new ApprovalsState({ api, departureMs: 0 });
    await state.load();
    const editing = state.edit('a', 1, { arguments: { name: 'pages' } });
    // This tab's edit made revision 2; another admin's edit (revision 3) is pushed before the reply lands.
    state.handleDecided({ seq: 2, siteId: 's1', approval: copy(3, { arguments: { name: 'notes' } }) });
    answer(copy(2, { arguments: { name: 'pages' } }));
    const outcome = await editing;
    expect(outcome).toEqual({ ok: true, approval: expect.objectContaining({ revision: 3 }) });
    expect(state.approval('a')?.arguments).toEqual({ name: 'notes' });
    expect(state.list.map(({ revision }) => revision)).toEqual([3]);
  });
});
