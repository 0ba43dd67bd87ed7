// The self-approval rule the server's decision and the Studio's approvals page share.
import { describe, expect, it } from 'vitest';
import { EDITOR_APPROVAL_MESSAGE, refusesSelfApproval, SELF_APPROVAL_MESSAGE, selfApprovalRefusal } from './policy.js';

const approval = { requestedBy: { id: 'ada' } };

describe('refusesSelfApproval', () => {
  it('refuses the requester only, and only when the policy does not allow self-approval', () => {
    expect(refusesSelfApproval(approval, 'ada', { selfApproval: false })).toBe(true);
    expect(refusesSelfApproval(approval, 'ada', { selfApproval: true })).toBe(false);
    expect(refusesSelfApproval(approval, 'grace', { selfApproval: false })).toBe(false);
    // A Studio without a signed-in user is not the requester.
    expect(refusesSelfApproval(approval, undefined, { selfApproval: false })).toBe(false);
  });
});

describe('selfApprovalRefusal', () => {
  const edited = { requestedBy: { id: 'ada' }, editedBy: { id: 'bea' } };
  it('refuses the last editor as it refuses the requester, each with its own words', () => {
    expect(selfApprovalRefusal(edited, 'ada', { selfApproval: false })).toBe(SELF_APPROVAL_MESSAGE);
    expect(selfApprovalRefusal(edited, 'bea', { selfApproval: false })).toBe(EDITOR_APPROVAL_MESSAGE);
    expect(selfApprovalRefusal(edited, 'cy', { selfApproval: false })).toBeUndefined();
    expect(selfApprovalRefusal(edited, 'bea', { selfApproval: true })).toBeUndefined();
    expect(refusesSelfApproval(edited, undefined, { selfApproval: false })).toBe(false);
  });
});
