// /ai: the Copilot in the X-Site-Id site — chat, approvals, conversations, audit. Any member unless noted.
import {
  ApprovalResponse,
  AuditVerificationResponse,
  ChatRequest,
  ChatResponse,
  DecideApprovalRequest,
  dataEnvelope,
  EditApprovalRequest,
  ListApprovalsQuery,
  ListApprovalsResponse,
  ListAuditQuery,
  ListAuditResponse,
  ListConversationsQuery,
  ListConversationsResponse,
  ListMessagesQuery,
  ListMessagesResponse,
  PolicyResponse,
  PutPolicyRequest,
} from '@lumibase/shared';
import type { Request } from 'express';
import { closedSignal } from './closed-signal.js';
import type { HarnessActor } from '../gate/ai-secure-harness.js';
import type { ApprovalsService, AuditService, ChatService, ConversationsService, PolicyService } from '../copilot/index.js';
import { declaredRouter, type MountedRouter, mountedRouter, mountPathOf } from './mount-route.js';
import { sendData, sendNoContent } from './parse-input.js';
import { currentSiteId, currentUser } from './require-capabilities.js';
import { declareRoute, NO_CONTENT } from './route.js';

const copilot = { tag: 'Copilot', auth: 'session', site: true } as const;
const approvals = { tag: 'Approvals', auth: 'session', site: true } as const;
const decider = { capabilities: ['approvals:decide'] } as const;

export const AI_ROUTES = {
  chat: declareRoute({
    ...copilot,
    method: 'post',
    path: '/api/v1/ai/chat',
    summary: 'One Copilot turn: safe skills run, dangerous ones become approvals',
    body: ChatRequest,
    success: { status: 200, description: 'The outcome of each skill call', schema: dataEnvelope(ChatResponse) },
    errors: [429],
  }),
  approvals: declareRoute({
    ...approvals,
    method: 'get',
    path: '/api/v1/ai/approvals',
    summary: 'Approvals of the site (pending unless `status` says otherwise), newest first',
    query: ListApprovalsQuery,
    success: { status: 200, description: "Approvals, with the site's event seq at the time of the read", schema: ListApprovalsResponse },
  }),
  approval: declareRoute({
    ...approvals,
    method: 'get',
    path: '/api/v1/ai/approvals/:id',
    summary: 'One approval',
    success: { status: 200, description: 'The approval', schema: ApprovalResponse },
  }),
  // `approvals:decide` is checked before the approval is looked up, so without it every id gets one answer.
  edit: declareRoute({
    ...approvals,
    method: 'patch',
    path: '/api/v1/ai/approvals/:id',
    summary: "Edit a pending approval's arguments: a new revision with its target and impact taken again; nothing runs",
    access: { ...decider, checks: ['skill-capabilities'] },
    body: EditApprovalRequest,
    success: { status: 200, description: 'The approval at its new revision', schema: ApprovalResponse },
    errors: [409],
  }),
  decide: declareRoute({
    ...approvals,
    method: 'post',
    path: '/api/v1/ai/approvals/:id/decide',
    summary: 'Approve or reject (202 while the worker is still executing)',
    access: { ...decider, checks: ['skill-capabilities'] },
    body: DecideApprovalRequest,
    success: {
      status: 200,
      description: 'The decided approval (202 with status `executing` if not finished in time)',
      schema: ApprovalResponse,
    },
    errors: [409],
  }),
  policy: declareRoute({
    ...approvals,
    method: 'get',
    path: '/api/v1/ai/policy',
    summary: "The site's Copilot policy: self-approval and each skill's mode",
    success: { status: 200, description: 'The policy', schema: PolicyResponse },
  }),
  putPolicy: declareRoute({
    ...approvals,
    method: 'put',
    path: '/api/v1/ai/policy',
    summary: "Change the site's Copilot policy (skills not named keep their mode; a dangerous skill is never auto)",
    access: { capabilities: ['users:write', 'approvals:decide'] },
    body: PutPolicyRequest,
    success: { status: 200, description: 'The policy', schema: PolicyResponse },
  }),
  conversations: declareRoute({
    ...copilot,
    method: 'get',
    path: '/api/v1/ai/conversations',
    summary: "The caller's Copilot conversations in the site",
    query: ListConversationsQuery,
    success: { status: 200, description: 'Conversations', schema: ListConversationsResponse },
  }),
  messages: declareRoute({
    ...copilot,
    method: 'get',
    path: '/api/v1/ai/conversations/:id/messages',
    summary: "A conversation's messages",
    query: ListMessagesQuery,
    success: { status: 200, description: 'Messages', schema: ListMessagesResponse },
  }),
  removeConversation: declareRoute({
    ...copilot,
    method: 'delete',
    path: '/api/v1/ai/conversations/:id',
    summary: 'Delete a conversation and its messages',
    success: NO_CONTENT,
  }),
  audit: declareRoute({
    ...approvals,
    method: 'get',
    path: '/api/v1/ai/audit',
    summary: "The site's audit entries, newest first",
    access: decider,
    query: ListAuditQuery,
    success: { status: 200, description: 'Audit entries', schema: ListAuditResponse },
  }),
  verifyAudit: declareRoute({
    ...approvals,
    method: 'get',
    path: '/api/v1/ai/audit/verify',
    summary: "Walk the site's audit hash chain; names the first broken seq",
    access: decider,
    success: { status: 200, description: 'Whether the chain holds', schema: AuditVerificationResponse },
  }),
};

export interface AiRouterOptions {
  chat: Pick<ChatService, 'chat'>;
  approvals: Pick<ApprovalsService, 'list' | 'get' | 'edit' | 'decide'>;
  conversations: Pick<ConversationsService, 'list' | 'messages' | 'remove'>;
  audit: Pick<AuditService, 'list' | 'verify'>;
  policy: Pick<PolicyService, 'get' | 'update'>;
}

/** The caller as the harness and the decider see them: who, and what they hold in this site. */
export function actorOf(request: Request): HarnessActor {
  const user = currentUser(request);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    capabilities: request.context.capabilities ?? [],
    isSuperadmin: user.isSuperadmin,
  };
}

/** Mounted below /api/v1 at the path its declarations share (mountPathOf), after tenancy. */
export function createAiRouter({ chat, approvals, conversations, audit, policy }: AiRouterOptions): MountedRouter {
  const declared = declaredRouter({ base: mountPathOf(AI_ROUTES) })
    .route(AI_ROUTES.chat, async ({ body: { message, conversationId } }, request, response) => {
      const sessionId = request.context.sessionId;
      sendData(
        response,
        200,
        await chat.chat({
          siteId: currentSiteId(request),
          actor: actorOf(request),
          message,
          conversationId,
          sessionId,
          signal: closedSignal(response),
        }),
      );
    })
    .route(AI_ROUTES.approvals, async ({ query: { status } }, request, response) => {
      const listed = await approvals.list(currentSiteId(request), status);
      sendData(response, 200, listed.approvals, { total: listed.total, seq: listed.seq });
    })
    .route(AI_ROUTES.approval, async ({ params }, request, response) => {
      sendData(response, 200, await approvals.get(currentSiteId(request), params.id));
    })
    .route(AI_ROUTES.edit, async ({ params, body: { revision, arguments: edited, steps } }, request, response) => {
      const approval = await approvals.edit({
        siteId: currentSiteId(request),
        approvalId: params.id,
        revision,
        ...(edited !== undefined ? { arguments: edited } : {}),
        ...(steps !== undefined ? { steps } : {}),
        editor: actorOf(request),
      });
      sendData(response, 200, approval);
    })
    .route(AI_ROUTES.decide, async ({ params, body }, request, response) => {
      const { decision, reason, revision } = body;
      const approval = await approvals.decide({
        siteId: currentSiteId(request),
        approvalId: params.id,
        decision,
        ...(reason ? { reason } : {}),
        ...(revision !== undefined ? { revision } : {}),
        decider: actorOf(request),
      });
      // Still executing once the wait is over: the outcome arrives as an approval-decided event.
      sendData(response, approval.status === 'executing' ? 202 : 200, approval);
    })
    .route(AI_ROUTES.policy, async (_input, request, response) => {
      sendData(response, 200, await policy.get(currentSiteId(request)));
    })
    .route(AI_ROUTES.putPolicy, async ({ body: change }, request, response) => {
      const user = currentUser(request);
      sendData(response, 200, await policy.update(currentSiteId(request), change, { id: user.id, name: user.name }));
    })
    .route(AI_ROUTES.conversations, async ({ query: page }, request, response) => {
      const { records, total } = await conversations.list(currentSiteId(request), currentUser(request).id, page);
      sendData(response, 200, records, { total, ...page });
    })
    .route(AI_ROUTES.messages, async ({ params, query: page }, request, response) => {
      const { records, total } = await conversations.messages(currentSiteId(request), currentUser(request).id, params.id, page);
      sendData(response, 200, records, { total, ...page });
    })
    .route(AI_ROUTES.removeConversation, async ({ params }, request, response) => {
      await conversations.remove(currentSiteId(request), currentUser(request).id, params.id);
      sendNoContent(response);
    })
    .route(AI_ROUTES.audit, async ({ query: page }, request, response) => {
      const { records, total } = await audit.list(currentSiteId(request), page);
      sendData(response, 200, records, { total, ...page });
    })
    .route(AI_ROUTES.verifyAudit, async (_input, request, response) => {
      sendData(response, 200, await audit.verify(currentSiteId(request)));
    });
  return mountedRouter(declared);
}
