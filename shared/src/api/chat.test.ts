import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChatRequest, ChatResponse } from './chat.js';
import { DecideApprovalRequest, ListApprovalsQuery } from './approvals.js';

describe('ChatRequest', () => {
  it('accepts a message iff 1 ≤ its trimmed length ≤ 2000, and trims it', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2100 }), fc.string({ unit: fc.constantFrom(' ', '\n', '\t'), maxLength: 5 }), (text, padding) => {
        const message = padding + text + padding;
        const trimmed = message.trim();
        const result = ChatRequest.safeParse({ message });
        expect(result.success).toBe(trimmed.length >= 1 && trimmed.length <= 2000);
        if (result.success) expect(result.data.message).toBe(trimmed);
      }),
      { numRuns: 200 },
    );
    expect(ChatRequest.safeParse({ message: 'x'.repeat(2000) }).success).toBe(true);
    expect(ChatRequest.safeParse({ message: 'x'.repeat(2001) }).success).toBe(false);
    expect(ChatRequest.safeParse({ message: 42 }).success).toBe(false);
  });
});

describe('ChatResponse', () => {
  it('describes the first outcome at the top level and all of them in results', () => {
    const pending = {
      status: 'pending_approval',
      skill: { name: 'deleteItem', arguments: { collection: 'posts', id: '1' } },
      approvalId: 'a1',
      message: 'queued',
    };
    expect(ChatResponse.safeParse({ ...pending, conversationId: 'c1', results: [pending] }).success).toBe(true);
    expect(ChatResponse.safeParse({ status: 'executed', message: 'hi', conversationId: 'c1', results: [] }).success).toBe(true);
    expect(ChatResponse.safeParse({ status: 'done', conversationId: 'c1', results: [] }).success).toBe(false);
  });
});

describe('approval requests', () => {
  it('lists pending approvals unless another status is asked for', () => {
    expect(ListApprovalsQuery.parse({})).toEqual({ status: 'pending' });
    expect(ListApprovalsQuery.safeParse({ status: 'done' }).success).toBe(false);
  });

  it('takes a decision of approved or rejected with an optional reason', () => {
    expect(DecideApprovalRequest.parse({ decision: 'rejected', reason: ' no ' })).toEqual({ decision: 'rejected', reason: 'no' });
    expect(DecideApprovalRequest.safeParse({ decision: 'maybe' }).success).toBe(false);
  });
});
