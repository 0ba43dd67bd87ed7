// The `sessions` collection: sign-ins, found by the SHA-256 of their token, expired by a TTL index.
import { type Connection, type InferSchemaType, type Model, Schema } from 'mongoose';

const sessionSchema = new Schema(
  {
    tokenHash: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'sessions', timestamps: { createdAt: true, updatedAt: false }, autoIndex: false },
);
sessionSchema.index({ tokenHash: 1 }, { unique: true });
sessionSchema.index({ userId: 1 });
// The database deletes a session once it has expired; reads also check expiresAt, since TTL runs late.
sessionSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export type SessionDocument = InferSchemaType<typeof sessionSchema>;
export type SessionModel = Model<SessionDocument>;

export function createSessionModel(connection: Connection): SessionModel {
  // A second compose on the same connection (tests, the all-in-one entry) reuses the model.
  return (connection.models['Session'] as SessionModel | undefined) ?? connection.model('Session', sessionSchema);
}
