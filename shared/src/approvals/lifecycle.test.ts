import { describe, expect, it } from 'vitest';
import { APPROVAL_STATUSES, type ApprovalStatus } from '../approvals.js';
import {
  canTransition,
  isApproved,
  isExecuting,
  isExpired,
  isPending,
  isRejected,
  isSettled,
  pendingCountDelta,
  SETTLED_STATUSES,
  statusesBefore,
} from './lifecycle.js';

const pairs = APPROVAL_STATUSES.flatMap((from) => APPROVAL_STATUSES.map((to) => [from, to] as const));

describe('approval lifecycle', () => {
  it('allows exactly the moves docs/API.md lists for approval-decided, and no other', () => {
    const allowed = pairs.filter(([from, to]) => canTransition(from, to)).map(([from, to]) => `${from} → ${to}`);
    expect(allowed.sort()).toEqual(
      [
        'pending → executing',
        'executing → approved',
        'executing → pending',
        'pending → rejected',
        'pending → expired',
        'executing → expired',
      ].sort(),
    );
  });

  it('treats approved, rejected and expired as settled, and every other status can still reach one of them', () => {
    expect([...SETTLED_STATUSES].sort()).toEqual(['approved', 'expired', 'rejected']);
    for (const status of APPROVAL_STATUSES.filter((status) => !isSettled(status))) {
      const reachable = new Set<ApprovalStatus>([status]);
      for (const from of [...reachable]) for (const to of APPROVAL_STATUSES) if (canTransition(from, to)) reachable.add(to);
      expect([...reachable].some(isSettled), status).toBe(true);
    }
  });

  it('names each status by exactly one predicate', () => {
    const predicates = { isPending, isExecuting, isApproved, isRejected, isExpired };
    const named = Object.entries(predicates).map(([name, is]) => [name, APPROVAL_STATUSES.filter(is)]);
    expect(Object.fromEntries(named)).toEqual({
      isPending: ['pending'],
      isExecuting: ['executing'],
      isApproved: ['approved'],
      isRejected: ['rejected'],
      isExpired: ['expired'],
    });
  });

  it('knows what may come before each status, changes within a status included', () => {
    expect(statusesBefore('pending').sort()).toEqual(['executing', 'pending']);
    expect(statusesBefore('executing').sort()).toEqual(['executing', 'pending']);
    expect(statusesBefore('approved')).toEqual(['executing']);
    expect(statusesBefore('rejected')).toEqual(['pending']);
    expect(statusesBefore('expired').sort()).toEqual(['executing', 'pending']);
  });

  it('moves the pending count by what the viewer knew: seen pending, or pending by every way in', () => {
    // Seen before: the count moves by what changed.
    expect(pendingCountDelta('pending', 'executing')).toBe(-1);
    expect(pendingCountDelta('pending', 'pending')).toBe(0);
    expect(pendingCountDelta('executing', 'pending')).toBe(1);
    expect(pendingCountDelta('executing', 'expired')).toBe(0);
    expect(pendingCountDelta('pending', 'expired')).toBe(-1);
    expect(pendingCountDelta('executing', 'approved')).toBe(0);
    // Never seen: only a status reached from pending alone was counted (a pending approval past the list's first page).
    expect(pendingCountDelta(undefined, 'rejected')).toBe(-1);
    expect(pendingCountDelta(undefined, 'approved')).toBe(0);
    expect(pendingCountDelta(undefined, 'pending')).toBe(1);
    // It may have been executing all along (a plan stepping, a run whose target changed): nothing comes off.
    expect(pendingCountDelta(undefined, 'executing')).toBe(0);
    expect(pendingCountDelta(undefined, 'expired')).toBe(0);
  });
});
