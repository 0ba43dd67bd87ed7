// The offline planner: maps the current message to at most one tool call by API.md's phrases.
import type { Planner, PlannerInput, PlannerOutput } from './planner.js';
import { echoHelpText, matchEchoPhrase } from './echo-phrases.js';

export class EchoPlanner implements Planner {
  readonly provider = 'echo' as const;

  /** Reads only the current (last user) message; history and tools do not change its answer. */
  async plan({ messages }: PlannerInput): Promise<PlannerOutput> {
    const current = messages.findLast((message) => message.role === 'user');
    const call = current ? matchEchoPhrase(current.content) : undefined;
    if (!call) return { text: echoHelpText(), toolCalls: [] };
    return { toolCalls: [{ id: 'echo-0', name: call.name, arguments: call.arguments }] };
  }
}
