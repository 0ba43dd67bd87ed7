import { describe, expect, it } from 'vitest';
import { APPROVAL_STATUSES } from '../approvals.js';
import { APPROVAL_TRANSITIONS, canTransition, isSettled, SETTLED_STATUSES } from './lifecycle.js';

describe('approval lifecycle', () => {
  it('names every status and only known statuses as targets', () => {
    expect(Object.keys(APPROVAL_TRANSITIONS).sort()).toEqual([...APPROVAL_STATUSES].sort());
    for (const targets of Object.values(APPROVAL_TRANSITIONS)) {
      for (const to of targets) expect(APPROVAL_STATUSES).toContain(to);
    }
  });

  it('treats approved, rejected and expired as settled, and nothing else', () => {
    expect([...SETTLED_STATUSES].sort()).toEqual(['approved', 'expired', 'rejected']);
    expect(isSettled('pending')).toBe(false);
    expect(isSettled('executing')).toBe(false);
  });

  it('lets nothing leave a settled status and nothing skip execution', () => {
    expect(canTransition('expired', 'pending')).toBe(false);
    expect(canTransition('pending', 'approved')).toBe(false);
    expect(canTransition('executing', 'pending')).toBe(true);
  });
});
