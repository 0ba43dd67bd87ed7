// Who calls the gate and with what: the context of a tool call, and the stores the gate writes to.
import { type ActorRef, actorRefOf, type CapabilityHolder, type ReadBefore } from '@lumibase/shared';
import type { ApprovalRepository } from '../store/ai/approval.store.js';
import type { AuditRepository } from '../store/ai/audit.store.js';
import type { ConversationRepository } from '../store/ai/conversation.store.js';
import type { NoticeRepository } from '../store/ai/notice.store.js';
import type { PolicyRepository } from '../store/ai/policy.store.js';
import type { TurnPlan } from './turn-plan.js';

export interface HarnessActor extends ActorRef, CapabilityHolder {}

/** Who asks, in which site, and the message that led the model to the call. */
export interface HarnessContext {
  siteId: string;
  actor: HarnessActor;
  message: string;
  conversationId?: string;
  /** What the model read earlier in the same turn; recorded on an approval this call creates. */
  readBefore?: ReadBefore[];
  /** An outside agent's call over MCP, and that agent's name: recorded on an approval this call creates. */
  via?: 'mcp';
  client?: string;
  /** The turn's plan (a chat turn): from the first call needing an approval on, writing calls become its steps. */
  plan?: TurnPlan;
}

/** A tool call as a planner produced it: arguments are untrusted until parsed. */
export interface ToolCall {
  name: string;
  arguments: unknown;
}

export interface HarnessStores {
  /** `conversations` hears what became of an approval made in a conversation (see note-approval-outcome.ts). */
  forSite(siteId: string): {
    approvals: ApprovalRepository;
    audit: AuditRepository;
    policy: Pick<PolicyRepository, 'get'>;
    /** Where a `warn`-tier call's notice goes (and its `copilot-notice` event). */
    notices: NoticeRepository;
    conversations?: ConversationRepository;
  };
}

export function actorOf(context: HarnessContext): ActorRef {
  return actorRefOf(context.actor);
}
