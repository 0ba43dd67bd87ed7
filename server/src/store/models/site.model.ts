// The `sites` collection: one document per tenant.
import { type Connection, type InferSchemaType, type Model, Schema } from 'mongoose';

const siteSchema = new Schema(
  {
    name: { type: String, required: true },
  },
  { collection: 'sites', timestamps: true, autoIndex: false },
);
// GET /sites pages in creation order.
siteSchema.index({ createdAt: 1 });

export type SiteDocument = InferSchemaType<typeof siteSchema>;
export type SiteModel = Model<SiteDocument>;

export function createSiteModel(connection: Connection): SiteModel {
  // A second compose on the same connection (tests, the all-in-one entry) reuses the model.
  return (connection.models['Site'] as SiteModel | undefined) ?? connection.model('Site', siteSchema);
}
