// The `cms_items` collection: content entries of one collection of one site.
import { type Connection, type InferSchemaType, type Model, Schema } from 'mongoose';
import { outboxFields } from '../outbox.js';
import { revisionFields } from './item-revision.model.js';

const itemSchema = new Schema(
  {
    siteId: { type: Schema.Types.ObjectId, required: true },
    /**
     * The collection's document id, not its name: items left behind by an interrupted collection
     * delete can never reappear in a later collection that reuses the name.
     */
    collectionId: { type: Schema.Types.ObjectId, required: true },
    /** Values by field name, encoded by item-data-codec (objects and arrays as JSON text). */
    data: { type: Schema.Types.Mixed, required: true, default: {} },
    /** Set by callers that may retry (the Copilot's approved skills): a retry finds the first insert. */
    operationId: { type: String },
    /** Values of the item's trashed fields, by trash entry id, until restored or purged (store/trash.store.ts). */
    trashedValues: { type: Schema.Types.Mixed },
    /** Site events this record's last writes owe (see store/outbox.ts). */
    ...outboxFields,
    /** The number of the item's latest revision; absent on items written before revisions existed (0). */
    revision: { type: Number },
    /**
     * Revisions written with the change, like the outbox: `item_revisions` gets them when the item is
     * relayed, so a change never exists without its revision (store/item-revision.store.ts).
     */
    owedRevisions: { type: [new Schema(revisionFields, { _id: false })], default: undefined },
  },
  { collection: 'cms_items', timestamps: true, autoIndex: false, minimize: false },
);
// Lists page newest first within one collection.
itemSchema.index({ siteId: 1, collectionId: 1, createdAt: -1 });
itemSchema.index({ siteId: 1, operationId: 1 }, { unique: true, partialFilterExpression: { operationId: { $type: 'string' } } });

export type CmsItemDocument = InferSchemaType<typeof itemSchema>;
export type CmsItemModel = Model<CmsItemDocument>;

export function createCmsItemModel(connection: Connection): CmsItemModel {
  // A second compose on the same connection (tests, the all-in-one entry) reuses the model.
  return (connection.models['CmsItem'] as CmsItemModel | undefined) ?? connection.model('CmsItem', itemSchema);
}
