// CMS contracts (site-scoped): collections, their fields, and items.
import { z } from 'zod';
import { Collection, Field, FieldChanges, Name } from '../fields.js';
import { ListMeta, ListQuery } from './envelope.js';

export const CreateCollectionRequest = Collection.strict();
export type CreateCollectionRequest = z.infer<typeof CreateCollectionRequest>;

export const CollectionView = z.object({
  name: Name,
  label: z.string().optional(),
  fields: z.array(Field),
});
export type CollectionView = z.infer<typeof CollectionView>;

export const CreateFieldRequest = Field;
export const PatchFieldRequest = FieldChanges;

/** Item values keyed by field name; checked against the collection's fields by the server. */
export const ItemData = z.record(z.string(), z.unknown());
export type ItemData = z.infer<typeof ItemData>;

export const ItemWriteRequest = z.strictObject({ data: ItemData });
export type ItemWriteRequest = z.infer<typeof ItemWriteRequest>;

export const ItemView = z.object({
  id: z.string(),
  collection: Name,
  data: ItemData,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type ItemView = z.infer<typeof ItemView>;

export const ItemListQuery = ListQuery;

export const CollectionResponse = z.object({ data: CollectionView });
export const CollectionListResponse = z.object({ data: z.array(CollectionView), meta: ListMeta });
export const FieldResponse = z.object({ data: Field });
export const ItemResponse = z.object({ data: ItemView });
export const ItemListResponse = z.object({ data: z.array(ItemView), meta: ListMeta });
export type ItemListResponse = z.infer<typeof ItemListResponse>;
