// One tools/call over MCP: the caller's per-user model-call limit for a skill that calls a model or the embedder (each
// call of a JSON-RPC batch counts on its own, so a batch cannot exceed it), then the Copilot's gate with what the session
// has read so far (a call that needs an approval is a plan of one step, stored by the same commitPlan as a Copilot
// turn's plan: gate/plan-commit.ts), then what this call read noted on the session.
import type { ReadBefore, SkillOutcome } from '@lumibase/shared';
import { modelCallRefused } from '../copilot/model-call-refused.js';
import type { HarnessActor, HarnessContext, ToolCall } from '../gate/ai-secure-harness.js';
import { noteReads, readsContent } from '../gate/content-reads.js';
import type { McpRun } from './mcp-run.js';

export interface McpCaller {
  siteId: string;
  actor: HarnessActor;
  /** The name the MCP client gave itself at initialize (clientInfo.name), recorded on the approvals its calls create. */
  client?: string | undefined;
}

export interface McpToolCallOptions {
  harness: { execute(context: HarnessContext, call: ToolCall): Promise<SkillOutcome> };
  caller: McpCaller;
  run: McpRun;
  /** CHAT_RATE_LIMIT_PER_MINUTE, shared with /ai/chat, /ai/skills and /ai/search (RateLimitedError beyond it). */
  modelCalls: { consume(userId: string): Promise<void> };
}

const NAME_SHOWN = 100;

export async function callMcpTool({ harness, caller, run, modelCalls }: McpToolCallOptions, call: ToolCall): Promise<SkillOutcome> {
  const refused = await modelCallRefused(call, () => modelCalls.consume(caller.actor.id));
  if (refused) return refused;
  const readBefore = run.readBefore();
  const context: HarnessContext = {
    siteId: caller.siteId,
    actor: caller.actor,
    message: `MCP${caller.client ? ` (${caller.client})` : ''}: ${call.name.slice(0, NAME_SHOWN)}`,
    via: 'mcp',
    ...(caller.client ? { client: caller.client } : {}),
    ...(readBefore.length > 0 ? { readBefore } : {}),
  };
  const outcome = await harness.execute(context, call);
  if (outcome.status === 'executed' && readsContent(call.name)) {
    const read: ReadBefore[] = [];
    noteReads(read, call.name, outcome.skill?.arguments ?? call.arguments, outcome.data);
    await run.noteReads(read);
  }
  return outcome;
}
