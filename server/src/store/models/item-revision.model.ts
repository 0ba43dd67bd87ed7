// The `item_revisions` collection: every change of an item, materialised from the revisions the item owes.
import { type Connection, type InferSchemaType, type Model, Schema } from 'mongoose';
import { REVISION_ACTIONS, REVISION_VIAS } from '@lumibase/shared';

/** A revision as owed on the item document and as stored here (minus the item's ids). */
export const revisionFields = {
  revision: { type: Number, required: true },
  action: { type: String, enum: REVISION_ACTIONS, required: true },
  /** The item's data after the change, as JSON text (store/json-codec.ts). */
  dataJson: { type: String, required: true },
  actor: {
    type: new Schema({ id: { type: String, required: true }, name: { type: String, default: '' } }, { _id: false }),
    required: true,
  },
  via: { type: String, enum: REVISION_VIAS, required: true },
  approvalId: { type: String },
  /** The skill operation that made the change, for the Copilot's undo. */
  operationId: { type: String },
  createdAt: { type: Date, required: true },
};

const itemRevisionSchema = new Schema(
  {
    siteId: { type: Schema.Types.ObjectId, required: true },
    collectionId: { type: Schema.Types.ObjectId, required: true },
    itemId: { type: Schema.Types.ObjectId, required: true },
    ...revisionFields,
  },
  { collection: 'item_revisions', autoIndex: false, versionKey: false },
);
// One revision per number per item: materialising twice (a retried relay) inserts nothing new.
itemRevisionSchema.index({ siteId: 1, itemId: 1, revision: -1 }, { unique: true });
itemRevisionSchema.index({ siteId: 1, operationId: 1 }, { partialFilterExpression: { operationId: { $type: 'string' } } });

export type ItemRevisionDocument = InferSchemaType<typeof itemRevisionSchema>;
export type ItemRevisionModel = Model<ItemRevisionDocument>;

export function createItemRevisionModel(connection: Connection): ItemRevisionModel {
  return (connection.models['ItemRevision'] as ItemRevisionModel | undefined) ?? connection.model('ItemRevision', itemRevisionSchema);
}
