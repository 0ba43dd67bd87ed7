// mongoose models of the Copilot's collections, registered on one connection (no global models).
import { type Connection, type InferSchemaType, type Model, Schema, type Types } from 'mongoose';
import { APPROVAL_STATUSES, AUDIT_ACTIONS, MESSAGE_ROLES } from '@lumibase/shared';
import { outboxFields } from '../outbox.js';

const options = { versionKey: false, autoIndex: false, minimize: false, strict: 'throw' } as const;

const actor = new Schema(
  { id: { type: String, required: true }, name: { type: String }, email: { type: String } },
  { _id: false, ...options },
);

/** An audit entry as owed: `entryId` becomes the entry's `_id`, so it can land only once. */
const owedAuditSchema = new Schema(
  {
    entryId: { type: Schema.Types.ObjectId, required: true },
    action: { type: String, enum: AUDIT_ACTIONS, required: true },
    skillName: { type: String },
    approvalId: { type: String },
    actor: { type: actor, required: true },
    detailJson: { type: String },
    createdAt: { type: Date, required: true },
  },
  { _id: false, ...options },
);

/** A conversation note as owed: `messageId` becomes the message's `_id`. */
const owedNoteSchema = new Schema(
  {
    messageId: { type: Schema.Types.ObjectId, required: true },
    conversationId: { type: String, required: true },
    content: { type: String, required: true },
    /** The outcome as data (JSON of SkillOutcome[]): what the model reads instead of the words. */
    resultsJson: { type: String },
    createdAt: { type: Date, required: true },
  },
  { _id: false, ...options },
);

const approvalSchema = new Schema(
  {
    siteId: { type: Schema.Types.ObjectId, required: true },
    skillName: { type: String, required: true },
    /** encodeJson(arguments): see json-codec.ts for why this is text. */
    argumentsJson: { type: String, required: true },
    context: {
      type: new Schema(
        // encodeJson(readBefore), like the arguments.
        {
          message: { type: String },
          conversationId: { type: String },
          readBeforeJson: { type: String },
          via: { type: String },
          client: { type: String },
        },
        { _id: false, ...options },
      ),
      required: true,
    },
    status: { type: String, enum: APPROVAL_STATUSES, required: true },
    requestedBy: { type: actor, required: true },
    decidedBy: { type: actor },
    decidedAt: { type: Date },
    reason: { type: String },
    resultJson: { type: String },
    lastError: { type: String },
    attempts: { type: Number, required: true },
    /** 1 at creation, bumped by every change: the compare-and-set also guards the event snapshot it writes. */
    revision: { type: Number, required: true, default: 1 },
    expiresAt: { type: Date },
    /** encodeJson of the target, the impact preview and the model's arguments before an approver's edit. */
    targetJson: { type: String },
    impactJson: { type: String },
    originalArgumentsJson: { type: String },
    /** encodeJson of a plan's steps before an approver's first edit of them. */
    originalStepsJson: { type: String },
    /** encodeJson of a plan's steps (several); a single step is read from the fields above. */
    stepsJson: { type: String },
    editedBy: { type: actor },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    /** approval-created / approval-decided events this approval owes (see store/outbox.ts). */
    outbox: outboxFields.outbox,
    /**
     * The audit entries and conversation notes its status changes owe, written with the change and
     * materialised by the relay under their own ids (store/ai/owed-approval-work.ts).
     */
    owedAudit: { type: [owedAuditSchema], default: undefined },
    owedNotes: { type: [owedNoteSchema], default: undefined },
    /** While pending as the gate asked for it: what makes a request identical (store/ai/pending-key.ts); unset by any change. */
    pendingKey: { type: String },
  },
  { collection: 'ai_approvals', ...options },
);
// Identical requests: one pending approval per site and key, whatever arrives at the same instant.
approvalSchema.index({ siteId: 1, pendingKey: 1 }, { unique: true, partialFilterExpression: { pendingKey: { $type: 'string' } } });
// The approvals list: one site, one status, newest first.
approvalSchema.index({ siteId: 1, status: 1, createdAt: -1 });
// The expiry sweep: pending approvals past their time, across sites.
approvalSchema.index({ status: 1, expiresAt: 1 });

const auditSchema = new Schema(
  {
    siteId: { type: Schema.Types.ObjectId, required: true },
    action: { type: String, enum: AUDIT_ACTIONS, required: true },
    skillName: { type: String },
    approvalId: { type: String },
    actor: { type: actor, required: true },
    detailJson: { type: String },
    createdAt: { type: Date, required: true },
    /** The hash chain (store/ai/audit-chain.ts): per-site seq 1, 2, … allocated under the unique index below. */
    seq: { type: Number },
    prevHash: { type: String },
    hash: { type: String },
  },
  { collection: 'ai_audit', ...options },
);
auditSchema.index({ siteId: 1, createdAt: -1 });
// No two entries of a site share a seq: concurrent appenders (other processes included) race on it.
auditSchema.index({ siteId: 1, seq: 1 }, { unique: true, partialFilterExpression: { seq: { $type: 'number' } } });

/**
 * The last link of each site's audit chain, so an append need not look for it among all entries
 * (the embedded server scans for anything but `_id`). Only a hint: the unique seq index decides, and
 * an append that finds the hint stale reads the real last entry.
 */
const auditHeadSchema = new Schema(
  {
    siteId: { type: Schema.Types.ObjectId, required: true },
    seq: { type: Number, required: true },
    hash: { type: String, required: true },
  },
  { collection: 'ai_audit_heads', ...options },
);
auditHeadSchema.index({ siteId: 1 }, { unique: true });

const conversationSchema = new Schema(
  {
    siteId: { type: Schema.Types.ObjectId, required: true },
    userId: { type: String, required: true },
    title: { type: String, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'ai_conversations', ...options },
);
conversationSchema.index({ siteId: 1, userId: 1, updatedAt: -1 });

const messageSchema = new Schema(
  {
    siteId: { type: Schema.Types.ObjectId, required: true },
    conversationId: { type: String, required: true },
    role: { type: String, enum: MESSAGE_ROLES, required: true },
    content: { type: String },
    resultsJson: { type: String },
    usage: { type: new Schema({ inputTokens: { type: Number }, outputTokens: { type: Number } }, { _id: false, ...options }) },
    createdAt: { type: Date, required: true },
  },
  { collection: 'ai_messages', ...options },
);
// The chat's context window: a conversation's latest messages.
messageSchema.index({ siteId: 1, conversationId: 1, createdAt: -1 });

/**
 * The skill executors' idempotency ledger: one document per operation (an approval id, or a fresh
 * id per safe call). `started` before a write, `completed` with its result after it.
 */
const operationSchema = new Schema(
  {
    siteId: { type: Schema.Types.ObjectId, required: true },
    operationId: { type: String, required: true },
    skillName: { type: String, required: true },
    status: { type: String, enum: ['started', 'completed'], required: true },
    resultJson: { type: String },
    startedAt: { type: Date, required: true },
    completedAt: { type: Date },
  },
  { collection: 'ai_operations', ...options },
);
// One claim per operation: the unique index is what makes two runs of it see each other.
operationSchema.index({ siteId: 1, operationId: 1 }, { unique: true });
// Re-deliveries come within minutes or hours; a month of memory is plenty.
operationSchema.index({ startedAt: 1 }, { expireAfterSeconds: 30 * 24 * 60 * 60 });

/** The site's Copilot policy as stored: only what differs from the defaults (see effectivePolicy). */
const policySchema = new Schema(
  {
    siteId: { type: Schema.Types.ObjectId, required: true },
    selfApproval: { type: Boolean },
    skillsJson: { type: String },
    afterContentRead: { type: String, enum: ['warn', 'ask'] },
    limitsJson: { type: String },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'ai_policies', ...options },
);
policySchema.index({ siteId: 1 }, { unique: true });

type WithId<T> = T & { _id: Types.ObjectId };
export type ApprovalDocument = WithId<InferSchemaType<typeof approvalSchema>>;
export type AuditDocument = WithId<InferSchemaType<typeof auditSchema>>;
export type ConversationDocument = WithId<InferSchemaType<typeof conversationSchema>>;
export type MessageDocument = WithId<InferSchemaType<typeof messageSchema>>;
export type OperationDocument = WithId<InferSchemaType<typeof operationSchema>>;
export type PolicyDocument = WithId<InferSchemaType<typeof policySchema>>;

export interface AiModels {
  approvals: Model<InferSchemaType<typeof approvalSchema>>;
  audit: Model<InferSchemaType<typeof auditSchema>>;
  auditHeads: Model<InferSchemaType<typeof auditHeadSchema>>;
  conversations: Model<InferSchemaType<typeof conversationSchema>>;
  messages: Model<InferSchemaType<typeof messageSchema>>;
  operations: Model<InferSchemaType<typeof operationSchema>>;
  policies: Model<InferSchemaType<typeof policySchema>>;
}

function register<T>(connection: Connection, name: string, schema: Schema<T>): Model<T> {
  return (connection.models[name] as Model<T> | undefined) ?? connection.model<T>(name, schema);
}

export function createAiModels(connection: Connection): AiModels {
  return {
    approvals: register(connection, 'AiApproval', approvalSchema),
    audit: register(connection, 'AiAudit', auditSchema),
    auditHeads: register(connection, 'AiAuditHead', auditHeadSchema),
    conversations: register(connection, 'AiConversation', conversationSchema),
    messages: register(connection, 'AiMessage', messageSchema),
    operations: register(connection, 'AiOperation', operationSchema),
    policies: register(connection, 'AiPolicy', policySchema),
  };
}

/** Called by the composition root at start; index builds are idempotent. */
export async function ensureAiIndexes(models: AiModels): Promise<void> {
  await Promise.all(Object.values(models).map((model: Model<unknown>) => model.createIndexes()));
}
