// The echo planner's replies: one plain sentence per tool result, saying what it did or asked for
// ("Listed 2 collections: posts, events." / "Deleting the collection posts needs an admin's approval;
// I have asked for it." / "I can't do that: …"). Deterministic; reads only the results it is given. The sentences
// about one skill are facts of its definition (its `reply`); here is only how a result picks one.
import { findSkill } from '@lumibase/shared';

/** A tool result as the turn hands it to a planner (copilot/planner-messages.ts `toolContent`). */
export interface EchoToolResult {
  tool?: string | null;
  status?: string;
  data?: unknown;
  approvalId?: string;
  message?: string;
  details?: { path?: string; message?: string }[];
}

type Args = Record<string, unknown>;
type Data = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const record = (value: unknown): Data => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Data) : {});
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function deniedSentence(result: EchoToolResult): string {
  const why = str(result.message) ?? 'it was refused';
  const detail = list(result.details)
    .map((entry) => record(entry))
    .map((entry) => [str(entry.path), str(entry.message)].filter(Boolean).join(': '))
    .filter((text) => text !== '' && !why.includes(text));
  return `I can't do that: ${why.replace(/[.\s]+$/, '')}${detail.length > 0 ? ` (${detail.slice(0, 3).join('; ')})` : ''}.`;
}

/** One sentence for one tool result; `args` are the call's arguments as the planner made them. */
export function echoReplySentence(result: EchoToolResult, args: Args): string {
  const skill = str(result.tool) ?? '';
  switch (result.status) {
    case 'executed':
      return findSkill(skill)?.reply.done(record(result.data), args) ?? 'Done.';
    // What the model hears of a call that needs approval is "planned" (a step of the turn's plan, docs/API.md "Runs and
    // plans"); a plan of one step reads as the request it is.
    case 'pending_approval':
    case 'planned': {
      const doing = findSkill(skill)?.reply.doing(args);
      return `${doing ?? 'That'} needs an admin's approval; I have asked for it.`;
    }
    default:
      return deniedSentence(result);
  }
}
