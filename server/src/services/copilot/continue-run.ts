// The run goes on after its approval is settled: the conversation's model, as the requester, hears the outcome as
// the tool results of the calls it planned (the settlement's note), and its reply is stored and pushed to them.
import { createHash } from 'node:crypto';
import {
  canonicalJson,
  type CopilotProgressEvent,
  findSkill,
  getSkillToolSpecs,
  parseSkillArguments,
  type SkillOutcome,
  type ToolSpec,
  quotedSkill,
} from '@lumibase/shared';
import type { HarnessActor } from '../../harness/ai-secure-harness.js';
import type { Planner } from '../../llm/planner.js';
import type { AiStoreFactory } from '../../store/ai/ai-stores.js';
import { CONTEXT_MESSAGES, type ConversationMessage, type ConversationRepository } from '../../store/ai/conversation.store.js';
import { contentReadsOf, runCopilotTurn, type TurnHarness } from './copilot-turn.js';
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

export type ContinuationResult = { ran: false; why: string } | { ran: true; reply: string; messageId: string };

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
    // The policy after the requester: it is trusted under the access epoch the requester was resolved under.
    const actorAndPolicy = this.options
      .actorFor(siteId, conversation.userId)
      .then(async (actor) => ({ actor, policy: await stores.policy.get(actor?.accessEpoch) }));
    const [{ actor, policy }, history, collections] = await Promise.all([
      actorAndPolicy,
      stores.conversations.latestMessages(conversationId, CONTEXT_MESSAGES),
      this.options.siteSchema?.(siteId),
    ]);
    const held = await heldOf(stores.conversations, history, [messageId, noteId]);
    if (held.has(messageId)) return { ran: false, why: 'already continued' };
    // The note (which the relay appended before it queued this) must be in the conversation: it holds the outcome.
    if (!held.has(noteId)) return { ran: false, why: 'note not appended' };
    if (!actor) return { ran: false, why: 'requester is no longer a member' };

    const { planner } = this.options;
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
      messages: plannerMessages(history, undefined, brief),
      context: { siteId, actor, message: approval.context.message, conversationId },
      maxSteps: this.options.maxSteps,
      siteCollections: brief?.collections.map((collection) => collection.name),
      readEarlier: planner.provider === 'echo' ? [] : contentReadsOf(history.flatMap((entry) => entry.results ?? [])),
    });
    // A model that fails now is said as such; the outcome stands in the note either way.
    const reply = turn.ok
      ? turn.reply.trim() || turn.texts.join('\n').trim() || plainOutcomes(turn.outcomes)
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
