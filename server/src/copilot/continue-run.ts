// The run goes on after its approval is settled: the conversation's model, as the requester, hears the outcome as
// the tool results of the calls it planned (the settlement's note), and its reply is stored and pushed to them.
import { createHash } from 'node:crypto';
import {
  canonicalJson,
  type CopilotProgressEvent,
  findSkill,
  getSkillToolSpecs,
  parseSkillArguments,
  RateLimitedError,
  type SkillOutcome,
  type ToolSpec,
  quotedSkill,
} from '@lumibase/shared';
import type { HarnessActor } from '../gate/ai-secure-harness.js';
import type { Planner } from '../llm/planner.js';
import type { AiStoreFactory } from '../store/ai/ai-stores.js';
import { CONTEXT_MESSAGES, type ConversationMessage, type ConversationRepository } from '../store/ai/conversation.store.js';
import { continuationWaitId, stoppedWords, waitingWords, waitSecondsOf } from './continuation-wait.js';
import { contentReadsOf, runCopilotTurn, type TurnHarness } from './copilot-turn.js';
import type { MayCallModel } from './may-call-model.js';
import { plannerMessages, type SiteBrief } from './planner-messages.js';
import { toolsForCaller } from './tools-for-caller.js';

/** Where a continued run's reply goes: every socket of the requester in the site (not only the session that asked). */
export interface CopilotReplySink {
  sendToMember(siteId: string, userId: string, event: CopilotProgressEvent): void;
}

export interface ContinueRunOptions {
  stores: Pick<AiStoreFactory, 'forSite'>;
  harness: TurnHarness;
  planner: Planner;
  /** The requester as they are now in the site (capabilities may have changed); undefined when no longer a member. */
  actorFor(siteId: string, userId: string): Promise<HarnessActor | undefined>;
  replies?: CopilotReplySink;
  /** LLM_MAX_STEPS. */
  maxSteps: number;
  /**
   * Asked before each model call the run makes, as the requester (their model-call limit; a site budget later):
   * required, so that no wiring lets settlements, which anyone can cause by withdrawing a request, call a model uncounted.
   */
  mayCallModel: MayCallModel;
  siteSchema?: (siteId: string) => Promise<SiteBrief['collections']>;
  clock?: () => Date;
  tools?: ToolSpec[];
}

export interface Continuation {
  siteId: string;
  approvalId: string;
  /** The id of the settlement's outcome note: one continuation per note. */
  noteId: string;
}

export type ContinuationResult =
  | { ran: false; why: string }
  /** The requester may not call the model yet: nothing was asked; try again after `retryAfterMs` (the job is delayed). */
  | { ran: false; why: 'model-call limit reached'; retryAfterMs: number }
  | { ran: true; reply: string; messageId: string };

/** The reply's message id, derived from the note's: a second run of the same continuation finds it there. */
export function continuationMessageId(noteId: string): string {
  return createHash('sha256').update(`continuation:${noteId}`).digest('hex').slice(0, 24);
}

export class ContinueRunService {
  private readonly clock: () => Date;
  private readonly tools: ToolSpec[];

  constructor(private readonly options: ContinueRunOptions) {
    this.clock = options.clock ?? (() => new Date());
    this.tools = options.tools ?? getSkillToolSpecs();
  }

  async continueRun({ siteId, approvalId, noteId }: Continuation): Promise<ContinuationResult> {
    const stores = this.options.stores.forSite(siteId);
    const approval = await stores.approvals.get(approvalId);
    const conversationId = approval?.context.conversationId;
    if (!approval || !conversationId) return { ran: false, why: 'no conversation' };
    const conversation = await stores.conversations.get(conversationId);
    if (!conversation) return { ran: false, why: 'conversation deleted' };
    const messageId = continuationMessageId(noteId);
    // Every read the turn needs at once (they depend on nothing but the conversation): a run that does not go on
    // read a little more than it had to, every run that does waits for one round trip instead of six.
    const [actor, policy, history, collections] = await Promise.all([
      this.options.actorFor(siteId, conversation.userId),
      stores.policy.get(),
      stores.conversations.latestMessages(conversationId, CONTEXT_MESSAGES),
      this.options.siteSchema?.(siteId),
    ]);
    const held = await heldOf(stores.conversations, history, [messageId, noteId]);
    if (held.has(messageId)) return { ran: false, why: 'already continued' };
    // The note (which the relay appended before it queued this) must be in the conversation: it holds the outcome.
    if (!held.has(noteId)) return { ran: false, why: 'note not appended' };
    if (!actor) return { ran: false, why: 'requester is no longer a member' };

    const { planner, mayCallModel } = this.options;
    const requester = { siteId, userId: conversation.userId };
    // The turn's first model call, asked for before anything of the turn happens: refused, the run waits whole (a
    // turn stopped part-way could not be taken up again without running its calls twice). As in chat, it counts
    // with the echo planner too, whose later steps call no model.
    try {
      await mayCallModel(requester);
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      // Said once: a retry still within the window finds the message in the history and says nothing more.
      const waitId = continuationWaitId(noteId);
      if (!history.some((message) => message.id === waitId)) {
        const waiting = waitingWords(error);
        await stores.conversations.appendMessageOnce(waitId, conversationId, {
          role: 'assistant',
          content: waiting,
          results: [{ status: 'executed', message: waiting }],
          createdAt: this.clock().toISOString(),
        });
        this.options.replies?.sendToMember(siteId, conversation.userId, { conversationId, kind: 'reply', text: waiting });
      }
      return { ran: false, why: 'model-call limit reached', retryAfterMs: waitSecondsOf(error) * 1000 };
    }
    const { tools, turnedOff } = toolsForCaller(this.tools, actor, policy);
    const brief = collections
      ? {
          collections,
          capabilities: actor.capabilities,
          today: this.clock().toISOString().slice(0, 10),
          turnedOff,
        }
      : undefined;
    const turn = await runCopilotTurn({
      planner,
      harness: approval.status === 'rejected' ? notAskingAgain(this.options.harness, approval.steps) : this.options.harness,
      tools,
      // Without the waiting message: the model takes up the outcome right after the note, as if it had not waited.
      messages: plannerMessages(
        history.filter((message) => message.id !== continuationWaitId(noteId)),
        undefined,
        brief,
      ),
      context: { siteId, actor, message: approval.context.message, conversationId },
      maxSteps: this.options.maxSteps,
      siteCollections: brief?.collections.map((collection) => collection.name),
      readEarlier: planner.provider === 'echo' ? [] : contentReadsOf(history.flatMap((entry) => entry.results ?? [])),
      // Every further call counts as well; refused part-way, the turn stops there and says so (as a chat turn does).
      beforeModelCall: async (step) => {
        if (step > 1 && planner.provider !== 'echo') await mayCallModel(requester);
      },
      beforeSkillModelCall: () => mayCallModel(requester),
    });
    // A model that fails now is said as such; the outcome stands in the note either way.
    const reply = turn.ok
      ? turn.reply.trim() || turn.texts.join('\n').trim() || plainOutcomes(turn.outcomes)
      : turn.error instanceof RateLimitedError
        ? stoppedWords(turn.error)
        : 'The Copilot’s language model failed while taking up the outcome; nothing more was run.';
    const outcomes: SkillOutcome[] = turn.outcomes.length > 0 ? turn.outcomes : [{ status: 'executed', message: reply }];
    await stores.conversations.appendMessageOnce(messageId, conversationId, {
      role: 'assistant',
      content: reply,
      results: outcomes,
      ...(turn.usage ? { usage: turn.usage } : {}),
      createdAt: this.clock().toISOString(),
    });
    this.options.replies?.sendToMember(siteId, conversation.userId, { conversationId, kind: 'reply', text: reply });
    return { ran: true, reply, messageId };
  }
}

/**
 * The gate for a run that continues after its plan was rejected: a call identical to one of the rejected steps (an
 * obedient model told the outcome often just tries again) is denied, not put to the admins a second time.
 */
function notAskingAgain(harness: TurnHarness, rejected: readonly { skillName: string; arguments: unknown }[]): TurnHarness {
  // As the gate stores them: parsed by the skill's schema (defaults filled in), so a call that omits a default matches.
  const keyOf = (name: string, args: unknown) => {
    const skill = findSkill(name);
    const parsed = skill ? parseSkillArguments(skill, args) : undefined;
    return canonicalJson([name, parsed?.success ? parsed.arguments : (args ?? {})]);
  };
  const refused = new Set(rejected.map((step) => keyOf(step.skillName, step.arguments)));
  return {
    execute: async (context, call) => {
      if (!refused.has(keyOf(call.name, call.arguments))) return harness.execute(context, call);
      return {
        status: 'denied',
        skill: { name: call.name, arguments: call.arguments },
        reason: 'already_rejected',
        message: `${quotedSkill(call.name)} with these arguments was just rejected by an admin; it is not asked again.`,
      };
    },
    ...(harness.commitPlan ? { commitPlan: harness.commitPlan.bind(harness) } : {}),
  };
}

/**
 * Which of `ids` the conversation holds. A history shorter than the page asked for is the whole conversation, so it
 * answers without a read (a run's conversation mostly is); a full page may have left older messages out, which are read by id.
 */
async function heldOf(
  conversations: Pick<ConversationRepository, 'heldMessages'>,
  history: readonly ConversationMessage[],
  ids: readonly string[],
): Promise<Set<string>> {
  if (history.length >= CONTEXT_MESSAGES) return conversations.heldMessages(ids);
  const present = new Set(history.map((message) => message.id));
  return new Set(ids.filter((id) => present.has(id)));
}

function plainOutcomes(outcomes: readonly SkillOutcome[]): string {
  return (
    outcomes
      .map((outcome) => outcome.message ?? (outcome.skill ? `${outcome.skill.name}: ${outcome.status}` : ''))
      .filter(Boolean)
      .join('\n') || 'Noted.'
  );
}
