// Approvals (dangerous skill calls waiting for a human) and audit entries, as the server holds them.
import { z } from 'zod';

export const APPROVAL_STATUSES = ['pending', 'executing', 'approved', 'rejected', 'expired'] as const;
export const ApprovalStatus = z.enum(APPROVAL_STATUSES);
export type ApprovalStatus = z.infer<typeof ApprovalStatus>;

/** How long a pending approval waits for a decision unless APPROVAL_TTL_SECONDS says otherwise: 72 hours. */
export const DEFAULT_APPROVAL_TTL_SECONDS = 259_200;

export const APPROVAL_DECISIONS = ['approved', 'rejected'] as const;
export const ApprovalDecision = z.enum(APPROVAL_DECISIONS);
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

/** Who asked or decided, as shown to other admins. */
/** Who acted. Display names are free and not unique: `email` (when known) tells two people of one name apart. */
export const ActorRef = z.object({ id: z.string().min(1), name: z.string(), email: z.string().optional() });

/** An actor as stored (name may be missing in old documents; email only where it was known). */
export function actorRefOf(stored: { id: string; name?: string | null; email?: string | null }): ActorRef {
  return { id: stored.id, name: stored.name ?? '', ...(stored.email != null ? { email: stored.email } : {}) };
}
export type ActorRef = z.infer<typeof ActorRef>;

/** Content the model read in the same turn before it proposed the call (listItems, searchItems, aiContentAssist). */
export const ReadBefore = z.object({ skill: z.string(), collection: z.string().optional(), id: z.string().optional() });
export type ReadBefore = z.infer<typeof ReadBefore>;

/**
 * The conversation a dangerous call came from, so the reviewer sees what the admin typed; `readBefore`
 * because content the model read may have steered it (the Studio shows it as a caution).
 */
export const ApprovalContext = z.object({
  message: z.string(),
  conversationId: z.string().optional(),
  readBefore: z.array(ReadBefore).optional(),
  /** Asked by an outside agent over MCP (absent: the Copilot). */
  via: z.literal('mcp').optional(),
  /** The MCP client's name (its initialize clientInfo), as the Studio shows it: "through Claude Desktop". */
  client: z.string().max(200).optional(),
});
export type ApprovalContext = z.infer<typeof ApprovalContext>;

/** The JSON arguments of a skill call, kept exactly as parsed. */
export const SkillArgumentsRecord = z.record(z.string(), z.unknown());

/** Why an approval expired: its time ran out, or what it would change is no longer what was asked about. */
export const EXPIRY_REASONS = ['ttl', 'target_changed'] as const;
export type ExpiryReason = (typeof EXPIRY_REASONS)[number];

export const TARGET_KINDS = ['collection', 'field', 'item', 'user'] as const;

/**
 * The identity of what the skill will change, taken when the approval is created: a collection
 * deleted and recreated under the same name has another `collectionId`, a removed field no `field`.
 */
export const ApprovalTarget = z.object({
  kind: z.enum(TARGET_KINDS),
  collection: z.string().optional(),
  collectionId: z.string().optional(),
  field: z.string().optional(),
  id: z.string().optional(),
  revision: z.number().int().optional(),
});
export type ApprovalTarget = z.infer<typeof ApprovalTarget>;

/** A preview of what will go: computed at creation and again at decision. */
export const ApprovalImpact = z.object({
  summary: z.string(),
  /** Items that will go or change: id and a title when the item has one. */
  items: z.array(z.object({ id: z.string(), title: z.string().optional() })).optional(),
  /** Values that will go (a deleted field's values, a sample). */
  values: z.array(z.unknown()).optional(),
  /** A deletion that goes to the trash: how many days it can be restored from there (TRASH_RETENTION_DAYS). */
  restorableDays: z.number().positive().optional(),
});
export type ApprovalImpact = z.infer<typeof ApprovalImpact>;

/** A plan step's progress: planned, then running, then done; or failed, or undone after a later step failed; skipped when never reached. */
export const STEP_STATUSES = ['planned', 'running', 'done', 'failed', 'undone', 'skipped'] as const;
export const StepStatus = z.enum(STEP_STATUSES);
export type StepStatus = z.infer<typeof StepStatus>;

/** One call of a plan (docs/API.md, "Runs and plans"): target and impact taken against the site as the earlier steps leave it. */
export const ApprovalStep = z.object({
  /** The step's identity, given when it is planned and kept across edits: its operations' idempotency keys use it, not its position. */
  id: z.string().optional(),
  skillName: z.string(),
  arguments: SkillArgumentsRecord,
  target: ApprovalTarget.optional(),
  impact: ApprovalImpact.optional(),
  status: StepStatus,
  result: z.unknown().optional(),
  error: z.string().optional(),
  /** An undone step's undo left this in place, in words: something of the step's that the step had not created. */
  undoNote: z.string().optional(),
});
export type ApprovalStep = z.infer<typeof ApprovalStep>;

/** The skillName of an approval of several steps. */
export const PLAN_SKILL_NAME = 'plan';

/** Every date of the Copilot's records, in a process as on the wire: an ISO-8601 string (as the CMS's items have). */
const date = z.iso.datetime();

export const Approval = z.object({
  id: z.string(),
  siteId: z.string(),
  skillName: z.string(),
  arguments: SkillArgumentsRecord,
  context: ApprovalContext,
  status: ApprovalStatus,
  requestedBy: ActorRef,
  decidedBy: ActorRef.optional(),
  decidedAt: date.optional(),
  reason: z.string().optional(),
  result: z.unknown().optional(),
  lastError: z.string().optional(),
  /** Executions started (each approve that won the compare-and-set). */
  attempts: z.number().int().min(0),
  /** 1 at creation, + 1 with every change: a decision may name the revision its approver saw. */
  revision: z.number().int().min(1),
  /** A pending approval not decided by then expires (`reason: "ttl"`). */
  expiresAt: date,
  target: ApprovalTarget.optional(),
  impact: ApprovalImpact.optional(),
  /** The calls it runs, in order (at least one; with one, skillName, arguments, target and impact are that step's). */
  steps: z.array(ApprovalStep).min(1),
  /** The model's arguments, when an approver edited them before approving. */
  originalArguments: SkillArgumentsRecord.optional(),
  /** The model's steps, when an approver edited or removed steps of the plan before approving (kept from the first edit). */
  originalSteps: z.array(ApprovalStep).optional(),
  editedBy: ActorRef.optional(),
  createdAt: date,
  updatedAt: date,
});

export type Approval = z.infer<typeof Approval>;

export const AUDIT_ACTIONS = [
  'executed',
  'denied',
  'approval_requested',
  'approved',
  'rejected',
  'execution_failed',
  'expired',
  'edited',
  'policy_changed',
  'restored',
  /** A plan's steps already done were undone after a later step failed (docs/API.md, "Runs and plans"). */
  'rolled_back',
  /** Entries written before the audit's hash chain existed were chained onto it (once, at start-up). */
  'chain_migrated',
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditAction>;

export const AuditEntry = z.object({
  id: z.string(),
  siteId: z.string(),
  action: AuditAction,
  skillName: z.string().optional(),
  approvalId: z.string().optional(),
  actor: ActorRef,
  /** What happened, as JSON: the arguments, the message and details of a denial, an error. */
  detail: z.record(z.string(), z.unknown()).optional(),
  createdAt: date,
  /** The hash chain (docs/API.md): 1, 2, … per site; absent only on entries written before the chain existed. */
  seq: z.number().int().min(1).optional(),
  prevHash: z.string().optional(),
  hash: z.string().optional(),
});

export type AuditEntry = z.infer<typeof AuditEntry>;
