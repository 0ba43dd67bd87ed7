// The offline planner: maps the current message to its tool calls by docs/API.md's phrases (several make a plan), then
// (its second step) says in a plain sentence what came of it.
import { continuationSentence, settledResults } from './echo-continuation.js';
import { echoHelpText, matchEchoCalls } from './echo-phrases.js';
import { type EchoToolResult, echoReplySentence } from './echo-reply.js';
import type { Planner, PlannerInput, PlannerMessage, PlannerOutput } from './planner.js';

export class EchoPlanner implements Planner {
  readonly provider = 'echo' as const;

  /**
   * Reads only the current (last user) message and what followed it in this turn: before any tool
   * result, the phrase's call (or the help); after them, one sentence per result and no call. A conversation that
   * ends with a settled approval's outcome (a continued run) gets one sentence for it.
   */
  async plan({ messages, siteCollections }: PlannerInput): Promise<PlannerOutput> {
    // A run that continues after its approval was settled: the outcome in one sentence, no call.
    const settled = settledResults(messages);
    if (settled) return { text: continuationSentence(settled), toolCalls: [] };
    const currentIndex = messages.findLastIndex((message) => message.role === 'user');
    const current = messages[currentIndex];
    const results = currentIndex < 0 ? [] : messages.slice(currentIndex + 1).filter((message) => message.role === 'tool');
    if (results.length > 0) return { text: replyFor(messages.slice(currentIndex + 1), results), toolCalls: [] };
    const calls = current ? matchEchoCalls(current.content) : [];
    if (calls.length === 0) return { text: echoHelpText(siteCollections), toolCalls: [] };
    return { toolCalls: calls.map((call, index) => ({ id: `echo-${index}`, name: call.name, arguments: call.arguments })) };
  }
}

function replyFor(turn: readonly PlannerMessage[], results: readonly PlannerMessage[]): string {
  const calls = turn.flatMap((message) => message.toolCalls ?? []);
  return results
    .map((result) => {
      const call = calls.find((candidate) => candidate.id === result.toolCallId);
      const args = (typeof call?.arguments === 'object' && call.arguments !== null ? call.arguments : {}) as Record<string, unknown>;
      return echoReplySentence(parseResult(result.content), args);
    })
    .join('\n');
}

function parseResult(content: string): EchoToolResult {
  try {
    const parsed: unknown = JSON.parse(content);
    return typeof parsed === 'object' && parsed !== null ? (parsed as EchoToolResult) : {};
  } catch {
    return {};
  }
}
