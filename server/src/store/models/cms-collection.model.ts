// The `cms_collections` collection: a site's content types and their fields.
import { type Connection, type InferSchemaType, type Model, Schema } from 'mongoose';
import { outboxFields } from '../outbox.js';

const collectionSchema = new Schema(
  {
    siteId: { type: Schema.Types.ObjectId, required: true },
    name: { type: String, required: true },
    label: { type: String },
    /** Field definitions as the shared `Field` schema produced them. */
    fields: { type: [Schema.Types.Mixed], default: [] },
    /** Bumped on every change of `fields`: field edits are compare-and-set on it. */
    revision: { type: Number, required: true, default: 0 },
    /** The operation that created it, so a retried create can recognise its own earlier success. */
    operationId: { type: String },
    /** Trash entries whose field was put back here: a resumed restore sees its field is in (services/trash.service.ts). */
    restoredTrashIds: { type: [String], default: undefined },
    /** Site events this record's last writes owe (see store/outbox.ts). */
    ...outboxFields,
  },
  { collection: 'cms_collections', timestamps: true, autoIndex: false, minimize: false },
);
// Names are unique per site (409 on a duplicate); the same index serves lookups and the ordered list.
collectionSchema.index({ siteId: 1, name: 1 }, { unique: true });

export type CmsCollectionDocument = InferSchemaType<typeof collectionSchema>;
export type CmsCollectionModel = Model<CmsCollectionDocument>;

export function createCmsCollectionModel(connection: Connection): CmsCollectionModel {
  // A second compose on the same connection (tests, the all-in-one entry) reuses the model.
  return (connection.models['CmsCollection'] as CmsCollectionModel | undefined) ?? connection.model('CmsCollection', collectionSchema);
}
