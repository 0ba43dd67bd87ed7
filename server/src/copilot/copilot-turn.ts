// One Copilot turn's model steps: ask the model, run each tool call through the harness, hand the outcomes back, repeat.
import {
  type CopilotProgressEvent,
  type ReadBefore,
  type SkillOutcome,
  type TokenUsage,
  type ToolSpec,
  quotedSkill,
} from '@lumibase/shared';
import type { HarnessContext, ToolCall } from '../gate/ai-secure-harness.js';
import { ModelCallError } from '../llm/model-call-error.js';
import type { PlannedToolCall, Planner, PlannerMessage } from '../llm/planner.js';
import { TurnPlan } from '../gate/turn-plan.js';
import { noteReads, READ_BEFORE_MAX, readsContent } from '../gate/content-reads.js';
import { modelCallRefused } from './model-call-refused.js';
import { plannedContent, toolContent } from './planner-messages.js';

export interface TurnHarness {
  execute(context: HarnessContext, call: ToolCall): Promise<SkillOutcome>;
  /** Stores the turn's plan as one approval (AISecureHarness.commitPlan); without it every call is gated on its own. */
  commitPlan?(context: HarnessContext, plan: TurnPlan): Promise<{ approvalId: string; alreadyPending: boolean } | undefined>;
}

export interface CopilotTurnOptions {
  planner: Planner;
  harness: TurnHarness;
  tools: ToolSpec[];
  /** System prompt, history and the new message; the turn appends its own steps to a copy. */
  messages: PlannerMessage[];
  context: HarnessContext;
  maxSteps: number;
  /** Content read in earlier turns of the conversation, which the model reads again in the history: it may steer this turn too. */
  readEarlier?: readonly ReadBefore[];
  progress?: ((event: Omit<CopilotProgressEvent, 'conversationId'>) => void) | undefined;
  /** The site's collection names, handed to the planner for its examples. */
  siteCollections?: readonly string[] | undefined;
  /** The caller went away: the model call in flight is aborted and no further step or call starts. */
  signal?: AbortSignal | undefined;
  /** Runs before every model call (`step` from 1; the wrap-up is maxSteps + 1); what it throws ends the turn as a failure. */
  beforeModelCall?: ((step: number) => Promise<void>) | undefined;
  /**
   * Runs before a tool call whose skill itself calls a model or the embedder (`callsModel`); a RateLimitedError it
   * throws denies that call unrun (`limit_reached`), anything else ends the turn as a failure.
   */
  beforeSkillModelCall?: (() => Promise<void>) | undefined;
  /** Tool calls one step may make (default DEFAULT_MAX_TOOL_CALLS_PER_STEP). */
  maxToolCallsPerStep?: number | undefined;
}

export type TurnResult =
  | { ok: true; outcomes: SkillOutcome[]; texts: string[]; reply: string; usage?: TokenUsage; cancelled?: boolean }
  /** `unreachable`: no model call of the turn got an answer (the caller answers 503). */
  | { ok: false; unreachable: boolean; error: unknown; outcomes: SkillOutcome[]; texts: string[]; usage?: TokenUsage };

/** Tool calls one model step may make; the calls beyond are denied unrun (the model is told). */
export const DEFAULT_MAX_TOOL_CALLS_PER_STEP = 10;

/**
 * The turn, with its plan: calls that need an approval (and the writing calls after them) are
 * planned, and the plan is stored as one approval when the turn ends. Each planned call's outcome
 * is pending_approval with the approval's id and its step; a plan identical to a pending one
 * points at that one instead.
 */
export async function runCopilotTurn(options: CopilotTurnOptions): Promise<TurnResult> {
  const { harness } = options;
  if (!harness.commitPlan) return runTurnSteps(options);
  const plan = new TurnPlan();
  const result = await runTurnSteps({ ...options, context: { ...options.context, plan } });
  const committed = await harness.commitPlan(options.context, plan);
  if (!committed) return result;
  const single = plan.steps.length === 1;
  for (const [index, outcome] of result.outcomes.entries()) {
    if (outcome.status !== 'pending_approval' || outcome.approvalId !== plan.id) continue;
    const name = quotedSkill(outcome.skill.name);
    const message = committed.alreadyPending
      ? `${single ? `${name} with these arguments` : 'The same plan'} is already waiting for a human admin's approval (approval ${committed.approvalId}); no second request was made.`
      : single
        ? `${name} needs a human admin's approval; approval ${committed.approvalId} is pending.`
        : `${name} is step ${outcome.step} of ${plan.steps.length} of a plan waiting for a human admin's approval (approval ${committed.approvalId}).`;
    result.outcomes[index] = { ...outcome, approvalId: committed.approvalId, message };
  }
  return result;
}

async function runTurnSteps({
  planner,
  harness,
  tools,
  messages,
  context,
  maxSteps,
  readEarlier = [],
  progress,
  siteCollections,
  signal,
  beforeModelCall,
  beforeSkillModelCall,
  maxToolCallsPerStep = DEFAULT_MAX_TOOL_CALLS_PER_STEP,
}: CopilotTurnOptions): Promise<TurnResult> {
  const conversation = [...messages];
  const outcomes: SkillOutcome[] = [];
  const texts: string[] = [];
  const readBefore: ReadBefore[] = readEarlier.slice(0, READ_BEFORE_MAX);
  let usage: TokenUsage | undefined;
  let answered = false;

  const cancelled = (): TurnResult => ({ ok: true, cancelled: true, outcomes, texts, reply: '', ...(usage ? { usage } : {}) });
  /** One model call; `toolChoice: 'none'` for the wrap-up after the step limit. */
  const ask = async (step: number, toolChoice?: 'none') => {
    await beforeModelCall?.(step);
    return planner.plan({
      messages: conversation,
      tools,
      ...(toolChoice ? { toolChoice } : {}),
      ...(signal ? { signal } : {}),
      ...(siteCollections ? { siteCollections } : {}),
      ...(progress ? { onText: (text: string) => progress({ step, kind: 'text', text }) } : {}),
    });
  };
  const addUsage = (more: TokenUsage | undefined) => {
    if (more)
      usage = { inputTokens: (usage?.inputTokens ?? 0) + more.inputTokens, outputTokens: (usage?.outputTokens ?? 0) + more.outputTokens };
  };

  for (let step = 1; step <= maxSteps; step++) {
    if (signal?.aborted) return cancelled();
    let output: Awaited<ReturnType<Planner['plan']>>;
    try {
      output = await ask(step);
    } catch (error) {
      if (signal?.aborted) return cancelled();
      const unreachable = !answered && (!(error instanceof ModelCallError) || error.kind === 'unreachable');
      return { ok: false, unreachable, error, outcomes, texts, ...(usage ? { usage } : {}) };
    }
    answered = true;
    addUsage(output.usage);
    if (output.text) texts.push(output.text);
    if (output.toolCalls.length === 0) return { ok: true, outcomes, texts, reply: output.text ?? '', ...(usage ? { usage } : {}) };

    const calls = output.toolCalls.map((call, index): PlannedToolCall => ({ ...call, id: call.id ?? `step${step}-${index}` }));
    conversation.push({ role: 'assistant', content: output.text ?? '', toolCalls: calls });
    for (const call of calls) {
      if (signal?.aborted) return cancelled();
      progress?.({ step, kind: 'tool-call', skill: call.name });
      const outcome = call.argumentsError
        ? malformedCall(call)
        : calls.indexOf(call) >= maxToolCallsPerStep
          ? tooManyCalls(call, maxToolCallsPerStep)
          : ((await modelCallRefused(call, beforeSkillModelCall)) ??
            (await harness.execute(readBefore.length > 0 ? { ...context, readBefore: [...readBefore] } : context, {
              name: call.name,
              arguments: call.arguments,
            })));
      outcomes.push(outcome);
      progress?.({ step, kind: 'tool-result', skill: call.name, status: outcome.status });
      if (outcome.status === 'executed' && readsContent(call.name)) noteReads(readBefore, call.name, call.arguments, outcome.data);
      conversation.push({
        role: 'tool',
        content: outcome.status === 'pending_approval' && outcome.step !== undefined ? plannedContent(outcome) : toolContent(outcome),
        toolCallId: call.id!,
        toolName: call.name,
        ...(outcome.status === 'denied' ? { isError: true } : {}),
      });
    }
  }
  // The step limit is reached with calls still coming: one last call without tools, for the answer.
  if (maxSteps > 1 && !signal?.aborted) {
    try {
      const wrapUp = await ask(maxSteps + 1, 'none');
      addUsage(wrapUp.usage);
      if (wrapUp.text) {
        texts.push(wrapUp.text);
        return { ok: true, outcomes, texts, reply: wrapUp.text, ...(usage ? { usage } : {}) };
      }
    } catch (_error) {
      if (signal?.aborted) return cancelled();
      // The steps' outcomes stand; the reply falls back to one sentence per outcome.
    }
  }
  if (signal?.aborted) return cancelled();
  return { ok: true, outcomes, texts, reply: '', ...(usage ? { usage } : {}) };
}

/** Arguments the model sent as malformed JSON: denied with why, nothing run, the model told like any denial. */
function malformedCall(call: PlannedToolCall): SkillOutcome {
  return {
    status: 'denied',
    skill: { name: call.name, arguments: call.arguments },
    reason: 'invalid_arguments',
    message: `Invalid arguments for ${quotedSkill(call.name)}: ${call.argumentsError}`,
    details: [{ path: 'arguments', message: call.argumentsError ?? 'malformed' }],
  };
}

/** A call beyond the step's cap: denied unrun, the model told like any denial. */
function tooManyCalls(call: PlannedToolCall, cap: number): SkillOutcome {
  return {
    status: 'denied',
    skill: { name: call.name, arguments: call.arguments },
    reason: 'limit_reached',
    message: `At most ${cap} tool calls per step: ${quotedSkill(call.name)} was not run`,
  };
}

/** What earlier outcomes (of the conversation's history) read of the site's content, as `readBefore` entries. */
export function contentReadsOf(outcomes: readonly SkillOutcome[]): ReadBefore[] {
  const reads: ReadBefore[] = [];
  for (const outcome of outcomes) {
    if (outcome.status === 'executed' && outcome.skill && readsContent(outcome.skill.name))
      noteReads(reads, outcome.skill.name, outcome.skill.arguments, outcome.data);
    // An approved call's result (told back in the approval's note) is content the model reads as well.
    const result = outcome.status === 'pending_approval' ? outcome.decision?.result : undefined;
    if (outcome.status === 'pending_approval' && result !== undefined && result !== null)
      noteReads(reads, outcome.skill.name, outcome.skill.arguments, result);
  }
  return reads;
}
