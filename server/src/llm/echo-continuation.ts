// The echo planner's word when a run continues: the planned calls' outcome as one plain sentence
// ("Done: the 4 steps of the plan ran." / "The plan was rejected: <reason>."). Deterministic.
import type { PlannerMessage } from './planner.js';

/** The statuses a settled approval hands back as the tool results of its planned calls (docs/API.md "The run continues"). */
const SETTLED = new Set(['approved', 'rejected', 'expired', 'failed']);

interface SettledResult {
  status: 'approved' | 'rejected' | 'expired' | 'failed';
  reason?: string;
  error?: string;
}

function settledResult(message: PlannerMessage): SettledResult | undefined {
  if (message.role !== 'tool') return undefined;
  try {
    const parsed = JSON.parse(message.content) as { status?: unknown; reason?: unknown; error?: unknown };
    if (typeof parsed !== 'object' || parsed === null || typeof parsed.status !== 'string' || !SETTLED.has(parsed.status)) return undefined;
    return {
      status: parsed.status as SettledResult['status'],
      ...(typeof parsed.reason === 'string' ? { reason: parsed.reason } : {}),
      ...(typeof parsed.error === 'string' ? { error: parsed.error } : {}),
    };
  } catch {
    return undefined;
  }
}

/** The tool results the conversation ends with, when they are a settled approval's: else undefined. */
export function settledResults(messages: readonly PlannerMessage[]): SettledResult[] | undefined {
  const trailing: SettledResult[] = [];
  for (let index = messages.length - 1; index >= 0 && messages[index]!.role === 'tool'; index--) {
    const result = settledResult(messages[index]!);
    if (!result) return undefined;
    trailing.unshift(result);
  }
  return trailing.length > 0 ? trailing : undefined;
}

const EXPIRED: Record<string, string> = {
  ttl: 'nobody decided in time',
  target_changed: 'what it would change has changed since it was asked for',
};

/** One sentence for the whole plan. */
export function continuationSentence(results: readonly SettledResult[]): string {
  const steps = results.length;
  const first = results[0]!;
  const failed = results.find((result) => result.status === 'failed');
  if (failed) return `The plan failed${failed.error ? `: ${failed.error}` : ''}. Nothing of it remains; it waits for a decision again.`;
  switch (first.status) {
    case 'approved':
      return steps === 1 ? 'Done: the step ran.' : `Done: the ${steps} steps of the plan ran.`;
    case 'rejected':
      return `The plan was rejected${first.reason ? `: ${first.reason}` : ''}.`;
    default:
      return `The plan expired (${EXPIRED[first.reason ?? ''] ?? first.reason ?? 'expired'}); nothing ran.`;
  }
}
