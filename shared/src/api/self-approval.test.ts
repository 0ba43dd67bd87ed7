// The self-approval rule the server's decision and the Studio's approvals page share.
import { describe, expect, it } from 'vitest';
import { refusesSelfApproval } from './policy.js';

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
