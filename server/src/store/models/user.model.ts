// The `users` collection: global accounts (a user belongs to sites through memberships).
import { type Connection, type InferSchemaType, type Model, Schema } from 'mongoose';

const userSchema = new Schema(
  {
    /** Stored normalised (trimmed, lower-case), so the unique index is case-insensitive in effect. */
    email: { type: String, required: true },
    name: { type: String, required: true },
    passwordHash: { type: String, required: true },
    isSuperadmin: { type: Boolean, required: true, default: false },
    /**
     * The site whose admin (not a superadmin) created the account with a generated password: the
     * account belongs to that site until its owner sets their own password (docs/API.md, POST /members).
     */
    heldBySiteId: { type: String },
  },
  { collection: 'users', timestamps: true, autoIndex: false },
);
userSchema.index({ email: 1 }, { unique: true });
userSchema.index({ createdAt: 1 });

export type UserDocument = InferSchemaType<typeof userSchema>;
export type UserModel = Model<UserDocument>;

export function createUserModel(connection: Connection): UserModel {
  // A second compose on the same connection (tests, the all-in-one entry) reuses the model.
  return (connection.models['User'] as UserModel | undefined) ?? connection.model('User', userSchema);
}
