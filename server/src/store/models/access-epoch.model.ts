// The `access_epochs` collection: one document whose value moves whenever access may have been taken away.
import { type Connection, type Model, Schema } from 'mongoose';

export interface AccessEpochDocument {
  _id: string;
  epoch: string;
}

// No `siteId`: the epoch is the deployment's, and a site's deletion moves it rather than deleting it.
const accessEpochSchema = new Schema<AccessEpochDocument>(
  { _id: { type: String, required: true }, epoch: { type: String, required: true } },
  { collection: 'access_epochs', versionKey: false, autoIndex: false },
);

export type AccessEpochModel = Model<AccessEpochDocument>;

export function createAccessEpochModel(connection: Connection): AccessEpochModel {
  // A second compose on the same connection (tests, the all-in-one entry) reuses the model.
  return (connection.models['AccessEpoch'] as AccessEpochModel | undefined) ?? connection.model('AccessEpoch', accessEpochSchema);
}
