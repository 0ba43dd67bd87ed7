// What happened to an approval, in one set of words for everyone who sees it (the requester's Copilot panel, the
// approver's card, toasts): the final arguments when an approver changed them ("approved with changes by Bea"), why an
// approval ended (its target changed, its time ran out, its requester withdrew it), never a skill's internal name.
import { type ApprovalJson, findSkill, isRejected, SKILL_NAMES, skillLabel } from '@lumibase/shared';

type Loose = Record<string, unknown>;

/** "Delete a collection" for deleteCollection (the server's words use the same labels). */
export { skillLabel };

const SKILL_NAME_PATTERN = new RegExp(`\\b(${SKILL_NAMES.join('|')})\\b`, 'g');

/** A server message with every internal skill name in it said as its label: "createField is turned off" → "“Add a field” is turned off". */
export function inWords(text: string): string {
  return text.replace(SKILL_NAME_PATTERN, (name) => `“${skillLabel(name)}”`);
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
const stripStop = (text: string) => text.replace(/[.!]$/, '');

/** The call in one sentence ("Adds the field standfirst to posts"), from the skill's definition. */
export function callSentence(skillName: string, args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  return findSkill(skillName)?.describe(args as Loose) || undefined;
}

/** The approver changed what the model proposed: the arguments now differ from the original ones. */
export function wasEdited(approval: ApprovalJson): boolean {
  if (approval.steps.length > 1 || (approval.originalSteps?.length ?? 0) > 1) {
    const calls = (steps: ApprovalJson['steps']) => JSON.stringify(steps.map(({ skillName, arguments: args }) => [skillName, args]));
    return approval.originalSteps !== undefined && calls(approval.originalSteps) !== calls(approval.steps);
  }
  return approval.originalArguments !== undefined && JSON.stringify(approval.originalArguments) !== JSON.stringify(approval.arguments);
}

/**
 * What the undo of a rolled-back plan left, as a clause ("what step 1 had not created itself, which was left as it was"):
 * an undone step's undo removes only what that step created (its `undoNote` says what it left). Undefined: nothing.
 */
export function keptByUndo(steps: readonly ApprovalJson['steps'][number][]): string | undefined {
  const kept = steps.flatMap((step, index) => (step.status === 'undone' && step.undoNote ? [index + 1] : []));
  if (kept.length === 0) return undefined;
  const which = kept.length === 1 ? `step ${kept[0]}` : `steps ${kept.slice(0, -1).join(', ')} and ${kept[kept.length - 1]}`;
  return `what ${which} had not created itself, which was left as it was`;
}

/** A plan's failed run, as a clause: what failed, and that what its earlier steps did was undone. */
export function planFailure(approval: ApprovalJson): string {
  const kept = keptByUndo(approval.steps);
  return `The plan failed: ${inWords(approval.lastError ?? 'a step failed')}. The steps it had done were undone, ${kept ? `except ${kept}` : 'so nothing of it remains'}`;
}

/** A rejection by the requester themself is a withdrawal. */
export function isWithdrawal(approval: ApprovalJson): boolean {
  return isRejected(approval.status) && approval.decidedBy !== undefined && approval.decidedBy.id === approval.requestedBy.id;
}

function hoursOf(approval: ApprovalJson): string | undefined {
  const ms = Date.parse(approval.expiresAt) - Date.parse(approval.createdAt);
  if (!(ms > 0)) return undefined;
  const hours = Math.round(ms / 3_600_000);
  if (hours >= 1) return hours === 1 ? '1 hour' : `${hours} hours`;
  const minutes = Math.max(1, Math.round(ms / 60_000));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** What the approval was about, for an expiry: "the collection posts", "the field teaser of posts", "the item". */
function targetWords(approval: ApprovalJson): string {
  const target = approval.target;
  if (!target) return 'what it would change';
  if (target.kind === 'collection' && target.collection) return `the collection ${target.collection}`;
  if (target.kind === 'field' && target.collection) {
    const field = target.field ?? (approval.arguments as Loose).field;
    return typeof field === 'string' ? `the field ${field} of ${target.collection}` : `the fields of ${target.collection}`;
  }
  if (target.kind === 'item') {
    const title = approval.impact?.items?.[0]?.title;
    return title
      ? `the item “${title}”${target.collection ? ` in ${target.collection}` : ''}`
      : `the item${target.collection ? ` in ${target.collection}` : ''}`;
  }
  if (target.kind === 'user') return 'the member';
  return 'what it would change';
}

/** Why an approval expired, as a clause: "the collection posts was deleted, recreated or changed after the request". */
export function expiryReason(approval: ApprovalJson): string {
  if (approval.reason === 'target_changed') return `${targetWords(approval)} was deleted, recreated or changed after the request`;
  const hours = hoursOf(approval);
  return hours ? `nobody decided within ${hours}` : 'nobody decided in time';
}

/** ": adds the field standfirst to posts (asked: adds the field teaser to posts)" — what runs after an edit; '' when unsaid. */
export function changedTail(approval: ApprovalJson): string {
  const now = callSentence(approval.skillName, approval.arguments);
  const asked = callSentence(approval.skillName, approval.originalArguments);
  if (!now) return '';
  return `: ${lowerFirst(stripStop(now))}${asked && asked !== now ? ` (asked: ${lowerFirst(stripStop(asked))})` : ''}`;
}

/** The editor is someone other than the decider (edits are their own step): both are named. */
export function editedBySomeoneElse(approval: ApprovalJson): boolean {
  return approval.editedBy !== undefined && approval.decidedBy !== undefined && approval.editedBy.id !== approval.decidedBy.id;
}

/** Who someone is to the viewer: "you" for themself, else their name. */
function who(actor: { id: string; name: string } | undefined, viewerId: string | undefined, fallback: string): string {
  if (!actor) return fallback;
  return actor.id === viewerId ? 'you' : actor.name || fallback;
}

/**
 * One sentence saying where a settled (or running) approval stands, the same for the requester and the approver.
 * Undefined while it is simply pending.
 */
export function outcomeSentence(approval: ApprovalJson, viewerId?: string): string | undefined {
  const decider = who(approval.decidedBy, viewerId, 'an admin');
  const approvedBy = !wasEdited(approval)
    ? `Approved by ${decider}`
    : editedBySomeoneElse(approval)
      ? `Approved by ${decider} with changes by ${who(approval.editedBy, viewerId, 'an admin')}${changedTail(approval)}`
      : `Approved with changes by ${decider}${changedTail(approval)}`;
  switch (approval.status) {
    case 'approved':
      return approval.steps.length > 1 ? `${approvedBy}; all ${approval.steps.length} steps done.` : `${approvedBy}; done.`;
    case 'executing':
      return `${approvedBy}; running…`;
    case 'rejected':
      if (isWithdrawal(approval))
        return `Withdrawn by ${who(approval.requestedBy, viewerId, 'its requester')}, who asked for it; nothing was changed.`;
      return `Rejected by ${decider}${approval.reason ? `: “${approval.reason}”` : ''}; nothing was changed.`;
    case 'expired':
      return `Expired: ${expiryReason(approval)}; nothing was changed.`;
    case 'pending':
      if (approval.lastError && approval.steps.length > 1) return `${planFailure(approval)}. Still pending, so an admin can retry.`;
      return approval.lastError ? `It ran and failed: ${inWords(approval.lastError)}. Still pending, so an admin can retry.` : undefined;
    default:
      return undefined;
  }
}
