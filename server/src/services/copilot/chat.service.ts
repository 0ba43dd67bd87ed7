// One Copilot turn: remember the message, ask the planner, run each tool call through the harness, remember the reply.
import { type ChatResponse, type SkillOutcome, type ToolSpec, UnavailableError, getSkillToolSpecs } from '@lumibase/shared';
import type { HarnessActor, ToolCall } from '../../harness/ai-secure-harness.js';
import type { Planner, PlannerOutput } from '../../llm/planner.js';
import type { AiStoreFactory } from '../../store/ai/ai-stores.js';
import { CONTEXT_MESSAGES, type Conversation, type ConversationRepository } from '../../store/ai/conversation.store.js';
import { recordNotInSite } from '../../store/record-not-in-site.js';
import type { ChatRateLimiter } from './chat-rate-limiter.js';
import { plannerMessages } from './planner-messages.js';

export interface ChatInput {
  siteId: string;
  actor: HarnessActor;
  /** Already validated and trimmed (1–2000 characters). */
  message: string;
  conversationId?: string | undefined;
}

export interface ChatServiceOptions {
  stores: Pick<AiStoreFactory, 'forSite'>;
  harness: {
    execute(
      context: { siteId: string; actor: HarnessActor; message: string; conversationId?: string },
      call: ToolCall,
    ): Promise<SkillOutcome>;
  };
  planner: Planner;
  rateLimiter: Pick<ChatRateLimiter, 'consume'>;
  clock?: () => Date;
  tools?: ToolSpec[];
  /** Receives planner failures (logged by the composition root); the caller gets a 503. */
  reportError?: (error: unknown) => void;
}

const TITLE_MAX = 80;

export class ChatService {
  private readonly clock: () => Date;
  private readonly tools: ToolSpec[];

  constructor(private readonly options: ChatServiceOptions) {
    this.clock = options.clock ?? (() => new Date());
    this.tools = options.tools ?? getSkillToolSpecs();
  }

  /**
   * RateLimitedError beyond the per-user limit; the not-in-site ForbiddenError for a conversation
   * that is not the caller's own in this site; UnavailableError when the planner fails.
   */
  async chat({ siteId, actor, message, conversationId }: ChatInput): Promise<ChatResponse> {
    await this.options.rateLimiter.consume(actor.id);
    const { conversations } = this.options.stores.forSite(siteId);
    const conversation =
      conversationId === undefined
        ? await conversations.create({ userId: actor.id, title: titleOf(message), at: this.clock() })
        : await ownConversation(conversations, conversationId, actor.id);

    // The context window is read before the new message is stored: the 20 before it, then it.
    const history = conversationId === undefined ? [] : await conversations.latestMessages(conversation.id, CONTEXT_MESSAGES);
    await conversations.appendMessage(conversation.id, { role: 'user', content: message, createdAt: this.clock() });
    const plan = await this.plan(history, message);

    const context = { siteId, actor, message, conversationId: conversation.id };
    const outcomes: SkillOutcome[] = [];
    // One planning step per turn: results go back to the admin, and to the model only as data in later turns.
    for (const call of plan.toolCalls)
      outcomes.push(await this.options.harness.execute(context, { name: call.name, arguments: call.arguments }));
    if (outcomes.length === 0) outcomes.push({ status: 'executed', message: plan.text ?? '' });

    await conversations.appendMessage(conversation.id, {
      role: 'assistant',
      content: replyText(plan, outcomes),
      results: outcomes,
      createdAt: this.clock(),
    });
    return { ...outcomes[0]!, conversationId: conversation.id, results: outcomes };
  }

  private async plan(history: Parameters<typeof plannerMessages>[0], message: string): Promise<PlannerOutput> {
    try {
      return await this.options.planner.plan({ messages: plannerMessages(history, message), tools: this.tools });
    } catch (error) {
      this.options.reportError?.(error);
      throw new UnavailableError({ message: 'The Copilot’s language model is unavailable; try again later' });
    }
  }
}

/** A conversation of another user, another site's, an unknown or a malformed id: one refusal. */
export async function ownConversation(conversations: ConversationRepository, id: string, userId: string): Promise<Conversation> {
  const conversation = await conversations.get(id);
  if (!conversation || conversation.userId !== userId) throw recordNotInSite();
  return conversation;
}

function titleOf(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length <= TITLE_MAX ? line : `${line.slice(0, TITLE_MAX - 1)}…`;
}

/** The assistant message as stored: the model's text, then one line per outcome. */
function replyText(plan: PlannerOutput, outcomes: readonly SkillOutcome[]): string {
  const lines = plan.text && plan.toolCalls.length > 0 ? [plan.text] : [];
  for (const outcome of outcomes) {
    if (outcome.status === 'executed') lines.push(outcome.skill ? `Executed ${outcome.skill.name}.` : (outcome.message ?? ''));
    else lines.push(outcome.message);
  }
  return lines.join('\n');
}
