// One Copilot turn as the admin sees it: remember the message, run the model steps, remember the reply, usage and outcomes.
import {
  type ChatResponse,
  type CopilotProgressEvent,
  type SkillOutcome,
  type ToolSpec,
  RateLimitedError,
  UnavailableError,
  getSkillToolSpecs,
} from '@lumibase/shared';
import type { HarnessActor } from '../gate/ai-secure-harness.js';
import { ModelCallError } from '../llm/model-call-error.js';
import { echoReplySentence } from '../llm/echo-reply.js';
import type { Planner } from '../llm/planner.js';
import type { AiStoreFactory } from '../store/ai/ai-stores.js';
import { CONTEXT_MESSAGES, type Conversation, type ConversationRepository } from '../store/ai/conversation.store.js';
import { recordNotInSite } from '../store/record-not-in-site.js';
import type { ChatRateLimiter } from './chat-rate-limiter.js';
import { contentReadsOf, runCopilotTurn, type TurnHarness } from './copilot-turn.js';
import { plannerMessages, type SiteBrief } from './planner-messages.js';
import { toolsForCaller } from './tools-for-caller.js';

export interface ChatInput {
  siteId: string;
  actor: HarnessActor;
  /** Already validated and trimmed (1 to CHAT_MESSAGE_MAX characters). */
  message: string;
  conversationId?: string | undefined;
  /** The caller's session: its sockets receive the turn's copilot-progress events. */
  sessionId?: string | undefined;
  /** Aborted when the caller went away: the model call in flight is aborted and no further step starts. */
  signal?: AbortSignal | undefined;
}

/** Where copilot-progress events go: the caller's own sockets (a session room), never the site's. */
export interface CopilotProgressSink {
  send(sessionId: string, event: CopilotProgressEvent): void;
}

export interface ChatServiceOptions {
  stores: Pick<AiStoreFactory, 'forSite'>;
  harness: TurnHarness;
  planner: Planner;
  rateLimiter: Pick<ChatRateLimiter, 'consume'>;
  clock?: () => Date;
  tools?: ToolSpec[];
  /** LLM_MAX_STEPS: model calls per turn at most (default 5). */
  maxSteps?: number;
  /** The site's collections and fields for the system prompt; without it the prompt has the rules only. */
  siteSchema?: (siteId: string) => Promise<SiteBrief['collections']>;
  progress?: CopilotProgressSink;
  /** Receives planner failures (logged by the composition root). */
  reportError?: (error: unknown) => void;
}

const TITLE_MAX = 80;
const DEFAULT_MAX_STEPS = 5;
const ECHO_STEPS = 2;
const CANCELLED = 'Cancelled: the request was closed before the Copilot finished; nothing more was run.';

export class ChatService {
  private readonly clock: () => Date;
  private readonly tools: ToolSpec[];

  constructor(private readonly options: ChatServiceOptions) {
    this.clock = options.clock ?? (() => new Date());
    this.tools = options.tools ?? getSkillToolSpecs();
  }

  /**
   * RateLimitedError beyond the per-user limit; the not-in-site ForbiddenError for a conversation
   * that is not the caller's own in this site; UnavailableError when no model call of the turn got
   * an answer. Any other model failure is a `denied` answer saying the model failed.
   */
  async chat({ siteId, actor, message, conversationId, sessionId, signal }: ChatInput): Promise<ChatResponse> {
    await this.options.rateLimiter.consume(actor.id);
    const { conversations } = this.options.stores.forSite(siteId);
    const conversation =
      conversationId === undefined
        ? await conversations.create({ userId: actor.id, title: titleOf(message), at: this.clock() })
        : await ownConversation(conversations, conversationId, actor.id);

    // The context window is read before the new message is stored: the 20 before it, then it.
    const history = conversationId === undefined ? [] : await conversations.latestMessages(conversation.id, CONTEXT_MESSAGES);
    await conversations.appendMessage(conversation.id, { role: 'user', content: message, createdAt: this.clock().toISOString() });
    const { planner, progress } = this.options;
    const { tools, turnedOff } = toolsForCaller(this.tools, actor, await this.options.stores.forSite(siteId).policy.get());
    const brief = this.options.siteSchema
      ? {
          collections: await this.options.siteSchema(siteId),
          capabilities: actor.capabilities,
          today: this.clock().toISOString().slice(0, 10),
          turnedOff,
        }
      : undefined;
    const turn = await runCopilotTurn({
      planner,
      harness: this.options.harness,
      tools,
      ...(signal ? { signal } : {}),
      messages: plannerMessages(history, message, brief),
      context: { siteId, actor, message, conversationId: conversation.id },
      // The echo planner makes its call, then says what came of it: two steps, never more.
      maxSteps: planner.provider === 'echo' ? ECHO_STEPS : (this.options.maxSteps ?? DEFAULT_MAX_STEPS),
      siteCollections: brief?.collections.map((collection) => collection.name),
      // A real model reads the history's tool results again, so content read in earlier turns may steer this one.
      readEarlier: planner.provider === 'echo' ? [] : contentReadsOf(history.flatMap((entry) => entry.results ?? [])),
      // The turn's first model call was counted above; a paid model's every further call counts too (the echo
      // planner's second step calls no model).
      beforeModelCall: async (step) => {
        if (step > 1 && planner.provider !== 'echo') await this.options.rateLimiter.consume(actor.id);
      },
      // A skill that calls a model or the embedder (search, suggest, assist) is one more model call of the caller's.
      beforeSkillModelCall: () => this.options.rateLimiter.consume(actor.id),
      progress: progress && sessionId ? (event) => progress.send(sessionId, { conversationId: conversation.id, ...event }) : undefined,
    });

    const outcomes = [...turn.outcomes];
    if (!turn.ok) {
      this.options.reportError?.(turn.error);
      if (turn.unreachable) throw new UnavailableError({ message: 'The Copilot’s language model is unavailable; try again later' });
      outcomes.push(modelFailed(turn.error));
    } else if (turn.cancelled) {
      // The caller went away: what already ran stays, and the conversation says the rest was cancelled.
      outcomes.push({ status: 'executed', message: CANCELLED });
    } else if (outcomes.length === 0) {
      outcomes.push({ status: 'executed', message: turn.reply || plainReply([]) });
    }
    const usage = turn.usage;
    await conversations.appendMessage(conversation.id, {
      role: 'assistant',
      content: replyText(turn.texts, outcomes),
      results: outcomes,
      ...(usage ? { usage } : {}),
      createdAt: this.clock().toISOString(),
    });
    // A failed turn answers with the failure first: it is the turn's verdict.
    // A turn that planned answers with its plan: pending_approval with the approval's id.
    const planned = outcomes.find((outcome) => outcome.status === 'pending_approval' && outcome.step !== undefined);
    const first = turn.ok ? (planned ?? outcomes[0]!) : outcomes.at(-1)!;
    const reply = (turn.ok ? turn.reply.trim() : '') || plainReply(outcomes);
    return { ...first, conversationId: conversation.id, results: outcomes, reply, ...(usage ? { usage } : {}) };
  }
}

/** The turn's answer when the model gave none (or failed): one plain sentence per outcome, never empty. */
function plainReply(outcomes: readonly SkillOutcome[]): string {
  const sentences = outcomes.map((outcome) =>
    outcome.skill
      ? echoReplySentence({ ...outcome, tool: outcome.skill.name }, (outcome.skill.arguments ?? {}) as Record<string, unknown>)
      : (outcome.message ?? ''),
  );
  return sentences.filter((sentence) => sentence.trim() !== '').join('\n') || 'I have nothing to add.';
}

/** Timeouts, 5xx after retries, unreadable output: said plainly, nothing of the failing step ran. */
function modelFailed(error: unknown): SkillOutcome {
  if (error instanceof RateLimitedError)
    return { status: 'denied', reason: 'limit_reached', message: `${error.message}; the Copilot stopped here and nothing more was run.` };
  const why = error instanceof ModelCallError ? error.message : 'the model call failed';
  return {
    status: 'denied',
    reason: 'model_failed',
    message: `The Copilot’s language model failed (${why}); nothing more was run. Try again.`,
  };
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

/** The assistant message as stored: the model's texts, then one line per outcome. */
function replyText(texts: readonly string[], outcomes: readonly SkillOutcome[]): string {
  const lines = outcomes.some((outcome) => outcome.skill) ? [...texts] : [];
  for (const outcome of outcomes) {
    if (outcome.status === 'executed') lines.push(outcome.skill ? `Executed ${outcome.skill.name}.` : (outcome.message ?? ''));
    else lines.push(outcome.message);
  }
  return lines.join('\n');
}
