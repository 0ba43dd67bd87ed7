// The `idempotency_records` collection: the first response to a request sent with an Idempotency-Key,
// per user, site and key; expired by a TTL index (reads also check expiresAt, since TTL runs late).
import { type Connection, type InferSchemaType, type Model, Schema } from 'mongoose';

const idempotencyRecordSchema = new Schema(
  {
    userId: { type: String, required: true },
    /** The site the request acts in, as resolved (one id whatever the X-Site-Id spelling); '' outside a site. */
    scope: { type: String, required: true, default: '' },
    key: { type: String, required: true },
    /** HMAC-SHA-256 (a server key) of method, path and body: the same key with another request is a 409. */
    fingerprint: { type: String, required: true },
    /** Carried by the write a create makes (its document's operationId): a take-over finds that document. */
    operationId: { type: String, required: true },
    status: { type: String, enum: ['started', 'completed'], required: true },
    /** The process running the request while `started`, and since when (a crashed run's claim is taken over). */
    owner: { type: String },
    startedAt: { type: Date, required: true },
    /** Counts take-overs: the conditional update that takes a claim over names the attempt it saw. */
    attempt: { type: Number, required: true, default: 0 },
    responseStatus: { type: Number },
    /** The response body as sent (JSON text), absent for a 204. */
    responseBody: { type: String },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'idempotency_records', autoIndex: false },
);
idempotencyRecordSchema.index({ userId: 1, scope: 1, key: 1 }, { unique: true });
idempotencyRecordSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export type IdempotencyRecordDocument = InferSchemaType<typeof idempotencyRecordSchema>;
export type IdempotencyRecordModel = Model<IdempotencyRecordDocument>;

export function createIdempotencyRecordModel(connection: Connection): IdempotencyRecordModel {
  // A second compose on the same connection (tests, the all-in-one entry) reuses the model.
  return (
    (connection.models['IdempotencyRecord'] as IdempotencyRecordModel | undefined) ??
    connection.model('IdempotencyRecord', idempotencyRecordSchema)
  );
}
