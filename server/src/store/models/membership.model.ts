// The `memberships` collection: a user's role and extra capabilities in one site.
import { type Connection, type InferSchemaType, type Model, Schema } from 'mongoose';

const membershipSchema = new Schema(
  {
    siteId: { type: Schema.Types.ObjectId, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    role: { type: String, required: true, enum: ['admin', 'editor', 'viewer'] },
    /** Only the extras: the role's preset is applied when read, so a preset change reaches everyone. */
    capabilities: { type: [String], default: [] },
  },
  { collection: 'memberships', timestamps: true, autoIndex: false },
);
// One membership per user and site; also serves the site's member list.
membershipSchema.index({ siteId: 1, userId: 1 }, { unique: true });
// "Which sites is this user in" at login and /auth/me.
membershipSchema.index({ userId: 1 });

export type MembershipDocument = InferSchemaType<typeof membershipSchema>;
export type MembershipModel = Model<MembershipDocument>;

export function createMembershipModel(connection: Connection): MembershipModel {
  // A second compose on the same connection (tests, the all-in-one entry) reuses the model.
  return (connection.models['Membership'] as MembershipModel | undefined) ?? connection.model('Membership', membershipSchema);
}
