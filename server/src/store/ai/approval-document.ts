// How an approval is stored in ai_approvals: the document read back as the API's Approval, and where each field
// an approval's change may set lives in the document (JSON text for what MongoDB could refuse as keys).
import { actorRefOf, type Approval, type ApprovalStep, type ReadBefore, type StepStatus } from '@lumibase/shared';
import type { OwingDocument } from '../outbox.js';
import type { ApprovalDocument } from './ai-models.js';
import { decodeJson, encodeJson } from '../json-codec.js';
import { toIso } from '../object-id.js';

/** A stored approval as a lean read gives it: its outbox entries are plain ones, as the relay takes them. */
export type StoredApproval = Omit<ApprovalDocument, 'outbox' | 'deletedAt'> & Pick<OwingDocument, 'outbox' | 'deletedAt'>;

/**
 * The steps of an approval: a plan's are stored (stepsJson); a single step is the approval's own
 * skillName, arguments, target and impact, its progress read from the approval's status.
 */
export function stepsOf(
  approval: Pick<Approval, 'skillName' | 'arguments' | 'target' | 'impact' | 'status' | 'result' | 'lastError'> & {
    steps?: ApprovalStep[] | undefined;
  },
): ApprovalStep[] {
  if (approval.steps && approval.steps.length > 1) return approval.steps;
  const status: StepStatus =
    approval.status === 'approved' ? 'done' : approval.status === 'executing' ? 'running' : approval.lastError ? 'failed' : 'planned';
  return [
    {
      skillName: approval.skillName,
      arguments: approval.arguments,
      ...(approval.target ? { target: approval.target } : {}),
      ...(approval.impact ? { impact: approval.impact } : {}),
      status,
      ...(approval.status === 'approved' && approval.result !== undefined ? { result: approval.result } : {}),
      ...(approval.lastError && approval.status !== 'approved' ? { error: approval.lastError } : {}),
    },
  ];
}

/** Approvals stored before expiry existed expire this long after their creation. */
const LEGACY_TTL_MS = 259_200_000;

export type ChangeableField =
  | 'decidedBy'
  | 'decidedAt'
  | 'reason'
  | 'result'
  | 'lastError'
  | 'arguments'
  | 'target'
  | 'impact'
  | 'originalArguments'
  | 'editedBy'
  | 'steps'
  | 'skillName'
  | 'originalSteps';

export function toApproval(document: StoredApproval): Approval {
  const approval: Approval = {
    id: document._id.toHexString(),
    siteId: document.siteId.toString(),
    steps: [],
    skillName: document.skillName,
    arguments: decodeJson(document.argumentsJson) as Record<string, unknown>,
    context: { message: document.context.message ?? '' },
    status: document.status,
    requestedBy: actorRefOf(document.requestedBy),
    attempts: document.attempts,
    revision: document.revision,
    expiresAt: toIso(document.expiresAt ?? new Date(document.createdAt.getTime() + LEGACY_TTL_MS)),
    createdAt: toIso(document.createdAt),
    updatedAt: toIso(document.updatedAt),
  };
  if (document.context.conversationId != null) approval.context.conversationId = document.context.conversationId;
  if (document.context.readBeforeJson != null) approval.context.readBefore = decodeJson(document.context.readBeforeJson) as ReadBefore[];
  if (document.context.via === 'mcp') approval.context.via = 'mcp';
  if (document.context.client != null) approval.context.client = document.context.client;
  if (document.decidedBy != null) approval.decidedBy = actorRefOf(document.decidedBy);
  if (document.decidedAt != null) approval.decidedAt = toIso(document.decidedAt);
  if (document.reason != null) approval.reason = document.reason;
  if (document.resultJson != null) approval.result = decodeJson(document.resultJson);
  if (document.lastError != null) approval.lastError = document.lastError;
  if (document.targetJson != null) approval.target = decodeJson(document.targetJson) as Approval['target'];
  if (document.impactJson != null) approval.impact = decodeJson(document.impactJson) as Approval['impact'];
  if (document.originalArgumentsJson != null)
    approval.originalArguments = decodeJson(document.originalArgumentsJson) as Record<string, unknown>;
  if (document.originalStepsJson != null) approval.originalSteps = decodeJson(document.originalStepsJson) as ApprovalStep[];
  if (document.editedBy != null) approval.editedBy = actorRefOf(document.editedBy);
  const stored = document.stepsJson == null ? undefined : (decodeJson(document.stepsJson) as ApprovalStep[]);
  approval.steps = stepsOf({ ...approval, ...(stored ? { steps: stored } : {}) });
  return approval;
}

/** Field name in the document for each changeable approval field, and how its value is stored. */
const JSON_FIELDS: Partial<Record<ChangeableField, string>> = {
  result: 'resultJson',
  arguments: 'argumentsJson',
  target: 'targetJson',
  impact: 'impactJson',
  originalArguments: 'originalArgumentsJson',
  steps: 'stepsJson',
  originalSteps: 'originalStepsJson',
};

export function storedField(field: ChangeableField, value: unknown): [string, unknown] {
  const path = JSON_FIELDS[field];
  if (path) return [path, encodeJson(value)];
  return [field, field === 'decidedAt' && typeof value === 'string' ? new Date(value) : value];
}
