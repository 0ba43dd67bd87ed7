// /ai: the Copilot in the X-Site-Id site — chat, approvals, conversations, audit. Any member unless noted.
import { ChatRequest, DecideApprovalRequest, ListApprovalsQuery, ListQuery, PutPolicyRequest } from '@lumibase/shared';
import { type Request, Router } from 'express';
import { closedSignal } from './closed-signal.js';
import type { HarnessActor } from '../harness/ai-secure-harness.js';
import type { ApprovalsService, AuditService, ChatService, ConversationsService, PolicyService } from '../services/copilot/index.js';
import { parseInput, routeParam, sendData, sendNoContent } from './parse-input.js';
import { currentSiteId, currentUser, requireCapabilities } from './require-capabilities.js';

export interface AiRouterOptions {
  chat: Pick<ChatService, 'chat'>;
  approvals: Pick<ApprovalsService, 'list' | 'get' | 'decide'>;
  conversations: Pick<ConversationsService, 'list' | 'messages' | 'remove'>;
  audit: Pick<AuditService, 'list' | 'verify'>;
  policy: Pick<PolicyService, 'get' | 'update'>;
}

/** The caller as the harness and the decider see them: who, and what they hold in this site. */
function actorOf(request: Request): HarnessActor {
  const user = currentUser(request);
  return { id: user.id, name: user.name, capabilities: request.context.capabilities ?? [], isSuperadmin: user.isSuperadmin };
}

/** Mounted at /ai after tenancy. */
export function createAiRouter({ chat, approvals, conversations, audit, policy }: AiRouterOptions): Router {
  const router = Router();
  const decide = requireCapabilities('approvals:decide');

  router.post('/chat', async (request, response) => {
    const { message, conversationId } = parseInput(ChatRequest, request.body, 'body');
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
  });

  router.get('/approvals', async (request, response) => {
    const { status } = parseInput(ListApprovalsQuery, request.query, 'query');
    const listed = await approvals.list(currentSiteId(request), status);
    sendData(response, 200, listed.approvals, { total: listed.total, seq: listed.seq });
  });

  router.get('/approvals/:id', async (request, response) => {
    sendData(response, 200, await approvals.get(currentSiteId(request), routeParam(request, 'id')));
  });

  // `approvals:decide` is checked before the approval is looked up, so without it every id gets one answer.
  router.post('/approvals/:id/decide', decide, async (request, response) => {
    const { decision, reason, revision, arguments: edited } = parseInput(DecideApprovalRequest, request.body, 'body');
    const approval = await approvals.decide({
      siteId: currentSiteId(request),
      approvalId: routeParam(request, 'id'),
      decision,
      ...(reason ? { reason } : {}),
      ...(revision !== undefined ? { revision } : {}),
      ...(edited !== undefined ? { arguments: edited } : {}),
      decider: actorOf(request),
    });
    // Still executing once the wait is over: the outcome arrives as an approval-decided event.
    sendData(response, approval.status === 'executing' ? 202 : 200, approval);
  });

  router.get('/policy', async (request, response) => {
    sendData(response, 200, await policy.get(currentSiteId(request)));
  });

  router.put('/policy', requireCapabilities('users:write', 'approvals:decide'), async (request, response) => {
    const change = parseInput(PutPolicyRequest, request.body, 'body');
    const user = currentUser(request);
    sendData(response, 200, await policy.update(currentSiteId(request), change, { id: user.id, name: user.name }));
  });

  router.get('/conversations', async (request, response) => {
    const page = parseInput(ListQuery, request.query, 'query');
    const { records, total } = await conversations.list(currentSiteId(request), currentUser(request).id, page);
    sendData(response, 200, records, { total, ...page });
  });

  router.get('/conversations/:id/messages', async (request, response) => {
    const page = parseInput(ListQuery, request.query, 'query');
    const { records, total } = await conversations.messages(
      currentSiteId(request),
      currentUser(request).id,
      routeParam(request, 'id'),
      page,
    );
    sendData(response, 200, records, { total, ...page });
  });

  router.delete('/conversations/:id', async (request, response) => {
    await conversations.remove(currentSiteId(request), currentUser(request).id, routeParam(request, 'id'));
    sendNoContent(response);
  });

  router.get('/audit', decide, async (request, response) => {
    const page = parseInput(ListQuery, request.query, 'query');
    const { records, total } = await audit.list(currentSiteId(request), page);
    sendData(response, 200, records, { total, ...page });
  });

  router.get('/audit/verify', decide, async (request, response) => {
    sendData(response, 200, await audit.verify(currentSiteId(request)));
  });

  return router;
}
