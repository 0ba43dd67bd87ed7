// Records for component and state tests, shaped like the API's.
import type { ApprovalJson, ChatResponse } from '@lumibase/shared';

export function approvalFixture(overrides: Partial<ApprovalJson> = {}): ApprovalJson {
  const skillName = overrides.skillName ?? 'deleteCollection';
  const args = overrides.arguments ?? { name: 'posts' };
  return {
    // Every approval is a plan of at least one step; one step mirrors the top-level fields (docs/API.md, "Runs and plans").
    steps: [{ skillName, arguments: args, status: 'planned' }],
    id: 'ap-1',
    siteId: 's1',
    skillName: 'deleteCollection',
    arguments: { name: 'posts' },
    context: { message: 'delete collection posts', conversationId: 'c1' },
    status: 'pending',
    requestedBy: { id: 'u-ann', name: 'Ann Admin' },
    attempts: 0,
    revision: 1,
    expiresAt: '2030-01-04T10:00:00.000Z',
    createdAt: '2030-01-01T10:00:00.000Z',
    updatedAt: '2030-01-01T10:00:00.000Z',
    ...overrides,
  };
}

export function executedReply(message: string, conversationId = 'conv-1'): ChatResponse {
  const outcome = { status: 'executed' as const, message };
  return { ...outcome, conversationId, results: [outcome] };
}

export function pendingReply(approvalId: string, name = 'posts', conversationId = 'conv-1'): ChatResponse {
  const outcome = {
    status: 'pending_approval' as const,
    skill: { name: 'deleteCollection', arguments: { name } },
    approvalId,
    message: `deleteCollection needs a human admin's approval; approval ${approvalId} is pending.`,
  };
  return { ...outcome, conversationId, results: [outcome] };
}
