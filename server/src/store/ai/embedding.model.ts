// `ai_embeddings`: one vector per item (or collection schema), model and site; `ai_embedding_generations`:
// a per-site counter bumped on every vector change, so every process knows when its cached vectors are stale.
import { type Connection, type Model, Schema, type Types } from 'mongoose';

export const EMBEDDING_KINDS = ['item', 'schema'] as const;
export type EmbeddingKind = (typeof EMBEDDING_KINDS)[number];

export interface EmbeddingDocument {
  _id: Types.ObjectId;
  siteId: Types.ObjectId;
  kind: EmbeddingKind;
  /** The collection's name (what the API shows) and id (a collection re-created under the name is another one). */
  collection: string;
  collectionId: Types.ObjectId;
  /** The item's id, or `schema:<collection>` for a collection's schema. */
  itemId: string;
  model: string;
  dims: number;
  /** A BSON vector (binary subtype 9, float32): compact, and what MongoDB's `$vectorSearch` indexes. */
  vector: unknown;
  contentHash: string;
  /** The item's revision and updatedAt when embedded: a vector is stale once the item moved on. */
  sourceRevision: number;
  sourceUpdatedAt: Date;
  updatedAt: Date;
}

const embeddingSchema = new Schema(
  {
    siteId: { type: Schema.Types.ObjectId, required: true },
    kind: { type: String, enum: EMBEDDING_KINDS, required: true },
    collection: { type: String, required: true },
    collectionId: { type: Schema.Types.ObjectId, required: true },
    itemId: { type: String, required: true },
    model: { type: String, required: true },
    dims: { type: Number, required: true },
    vector: { type: Schema.Types.Mixed, required: true },
    contentHash: { type: String, required: true },
    sourceRevision: { type: Number, required: true },
    sourceUpdatedAt: { type: Date, required: true },
  },
  // `collection` is a field name here, so the mongoose option of that name must be set explicitly.
  {
    collection: 'ai_embeddings',
    timestamps: { createdAt: false, updatedAt: true },
    autoIndex: false,
    versionKey: false,
    suppressReservedKeysWarning: true,
  },
);
embeddingSchema.index({ siteId: 1, collection: 1, itemId: 1, model: 1 }, { unique: true });
embeddingSchema.index({ siteId: 1, model: 1, kind: 1 });

const generationSchema = new Schema(
  {
    siteId: { type: Schema.Types.ObjectId, required: true },
    generation: { type: Number, required: true, default: 0 },
    /** Bumped when only the item versions a vector stands for moved (same text, same vector): the pending count's key. */
    touches: { type: Number, default: 0 },
  },
  { collection: 'ai_embedding_generations', autoIndex: false, versionKey: false },
);
generationSchema.index({ siteId: 1 }, { unique: true });

export interface EmbeddingModels {
  embeddings: Model<EmbeddingDocument>;
  generations: Model<{ siteId: Types.ObjectId; generation: number; touches?: number }>;
}

export async function createEmbeddingModels(connection: Connection): Promise<EmbeddingModels> {
  const models: EmbeddingModels = {
    // A second compose on the same connection (tests, the all-in-one entry) reuses the models.
    embeddings: (connection.models['AiEmbedding'] ??
      connection.model('AiEmbedding', embeddingSchema)) as unknown as EmbeddingModels['embeddings'],
    generations: (connection.models['AiEmbeddingGeneration'] ??
      connection.model('AiEmbeddingGeneration', generationSchema)) as unknown as EmbeddingModels['generations'],
  };
  await Promise.all([models.embeddings.createIndexes(), models.generations.createIndexes()]);
  return models;
}
