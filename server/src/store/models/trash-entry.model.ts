// The `trash_entries` collection: deleted collections, fields and items, restorable until `expiresAt`.
// The items stay in `cms_items` (a trashed collection's under its old collection id, a trashed
// field's values moved to `trashedValues.<entry id>`), so nothing is copied and nothing can be half-copied;
// a deleted item lives on in its revisions (its last one holds its data).
import { type Connection, type InferSchemaType, type Model, Schema } from 'mongoose';
import { TRASH_KINDS } from '@lumibase/shared';

const trashEntrySchema = new Schema(
  {
    siteId: { type: Schema.Types.ObjectId, required: true },
    kind: { type: String, enum: TRASH_KINDS, required: true },
    /** The collection's internal id: its items (and a field's values) point at it. */
    collectionId: { type: Schema.Types.ObjectId, required: true },
    /** The collection's name when it was deleted (`collection` is a name mongoose reserves). */
    collectionName: { type: String, required: true },
    /** A field entry's field name. */
    field: { type: String },
    /** An item entry's item id, and its title when it was deleted. */
    itemId: { type: Schema.Types.ObjectId },
    title: { type: String },
    /** JSON text: `{ label?, fields }` of a collection, or the `Field` of a field. */
    definitionJson: { type: String, required: true },
    items: { type: Number, required: true, default: 0 },
    deletedBy: {
      type: new Schema({ id: { type: String, required: true }, name: { type: String, default: '' } }, { _id: false }),
      required: true,
    },
    deletedAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
    /**
     * `pending` from before the deletion until it is complete; only `done` entries are listed. A crash
     * in between leaves a `pending` entry, which the purge task finishes or drops (trash-purge.ts).
     */
    state: { type: String, enum: ['pending', 'done'], required: true },
    /** Set by a restore (which may be resumed) and by a purge: the two never both take an entry. */
    restoringAt: { type: Date },
    /** Which process's restore holds the entry (trash.store.ts: claimForRestore). */
    restoringBy: { type: String },
    purgingAt: { type: Date },
  },
  { collection: 'trash_entries', autoIndex: false, versionKey: false },
);
// The site's trash, newest first.
trashEntrySchema.index({ siteId: 1, deletedAt: -1 });
// An item's entries (a restore by its revisions takes them out of the trash).
trashEntrySchema.index({ siteId: 1, itemId: 1 }, { partialFilterExpression: { itemId: { $exists: true } } });
// The purge's scan across sites.
trashEntrySchema.index({ expiresAt: 1 });

export type TrashEntryDocument = InferSchemaType<typeof trashEntrySchema>;
export type TrashEntryModel = Model<TrashEntryDocument>;

export function createTrashEntryModel(connection: Connection): TrashEntryModel {
  return (connection.models['TrashEntry'] as TrashEntryModel | undefined) ?? connection.model('TrashEntry', trashEntrySchema);
}
