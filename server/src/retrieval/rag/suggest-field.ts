// aiSuggestField's logic: retrieve the fields nearest the admin's description (the site's and the catalog's), then
// suggest one the collection lacks, from retrieval alone (echo) or with one model call whose answer is validated.
import { detailsFromZodIssues, FIELD_TYPES, Field, NAME_PATTERN } from '@lumibase/shared';
import type { Embedder } from '../embeddings/embedder.js';
import { cosine, roundScore } from './cosine.js';
import { CATALOG_COLLECTION, type CatalogField, catalogFieldText, FIELD_CATALOG } from './field-catalog.js';
import { deriveFieldName, uniqueFieldName } from './field-name.js';
import type { JsonModel } from './json-model.js';
import { DATA_RULES, dataBlock } from './prompt-data.js';
import { ModelAnswerRejectedError } from './rag-errors.js';

export interface SiteField {
  collection: string;
  field: Field;
  /** This field's vector under the same embedder (of siteFieldText), when stored: it is not embedded again. */
  vector?: Float32Array;
}

export interface SuggestFieldInput {
  collection: { name: string; label?: string | undefined; fields: readonly Field[] };
  /** What the field should hold, in the admin's words. */
  description: string;
  /** The fields of the site's collections; the collection's own may be among them: they are skipped (never suggested). */
  siteFields: readonly SiteField[];
  /** Default: FIELD_CATALOG. */
  catalog?: readonly CatalogField[];
  /** How many similar fields the answer lists (default 5). */
  limit?: number;
}

export interface SimilarField {
  /** The collection the field belongs to, or CATALOG_COLLECTION. */
  collection: string;
  field: string;
  /** Cosine similarity of the description and the field, in [-1, 1]. */
  score: number;
}

export interface FieldSuggestion {
  /** A valid Field that the collection does not have. */
  suggestion: Field;
  rationale: string;
  similar: SimilarField[];
}

export interface SuggestFieldDependencies {
  embedder: Embedder;
  /** Absent (echo): the suggestion comes from retrieval alone, deterministically. */
  model?: JsonModel | undefined;
  signal?: AbortSignal;
}

interface Candidate {
  collection: string;
  field: Field;
  description?: string;
  score: number;
}

const DEFAULT_LIMIT = 5;
/** The model sees this many retrieved fields. */
const PROMPT_CANDIDATES = 12;
const RATIONALE_MAX = 1000;

/** The words a site's field is retrieved by (what the embeddings pipeline embeds for a schema's field, too). */
export function siteFieldText(collection: string, field: Field): string {
  const values = field.type === 'enum' && Array.isArray(field.options?.values) ? ` one of ${field.options.values.join(', ')}` : '';
  return `${field.name.replaceAll('_', ' ')} (${field.type}${values}) in ${collection.replaceAll('_', ' ')}`;
}

export async function suggestField(
  input: SuggestFieldInput,
  { embedder, model, signal }: SuggestFieldDependencies,
): Promise<FieldSuggestion> {
  const ranked = await retrieve(input, embedder);
  const similar = ranked
    .slice(0, input.limit ?? DEFAULT_LIMIT)
    .map(({ collection, field, score }) => ({ collection, field: field.name, score: roundScore(score) }));
  const taken = new Set(input.collection.fields.map((field) => field.name));
  if (!model) return { ...fromRetrieval(input, ranked, taken), similar };
  return { ...(await fromModel(input, ranked, taken, model, signal)), similar };
}

/**
 * The other collections' and the catalog's fields related to the description at all (cosine above 0), best first;
 * ties keep the site's fields before the catalog's, each in its given order.
 */
async function retrieve(input: SuggestFieldInput, embedder: Embedder): Promise<Candidate[]> {
  const catalog = input.catalog ?? FIELD_CATALOG;
  // The collection's own fields cannot be suggested, and descriptions that name the collection would rank them first.
  const siteFields = input.siteFields.filter((site) => site.collection !== input.collection.name);
  const unembedded = siteFields.filter((site) => site.vector?.length !== embedder.dims);
  const [query, ...siteVectors] = await embedder.embed([
    input.description,
    ...unembedded.map((site) => siteFieldText(site.collection, site.field)),
  ]);
  const fresh = new Map(unembedded.map((site, index) => [site, siteVectors[index] as Float32Array]));
  const catalogVectors = await catalogVectorsOf(embedder, catalog);
  const candidates: Candidate[] = [
    ...siteFields.map((site) => ({
      collection: site.collection,
      field: site.field,
      score: cosine(query as Float32Array, fresh.get(site) ?? (site.vector as Float32Array)),
    })),
    ...catalog.map((entry, index) => ({
      collection: CATALOG_COLLECTION,
      field: entry.field,
      description: entry.description,
      score: cosine(query as Float32Array, catalogVectors[index] as Float32Array),
    })),
  ];
  return candidates
    .map((candidate, order) => ({ candidate, order }))
    .filter(({ candidate }) => candidate.score > 0)
    .sort((a, b) => b.candidate.score - a.candidate.score || a.order - b.order)
    .map(({ candidate }) => candidate);
}

/** The catalog is embedded once per embedder and catalog. */
const catalogCache = new WeakMap<Embedder, WeakMap<readonly CatalogField[], Promise<Float32Array[]>>>();

function catalogVectorsOf(embedder: Embedder, catalog: readonly CatalogField[]): Promise<Float32Array[]> {
  const byCatalog = catalogCache.get(embedder) ?? new WeakMap<readonly CatalogField[], Promise<Float32Array[]>>();
  catalogCache.set(embedder, byCatalog);
  let vectors = byCatalog.get(catalog);
  if (!vectors) {
    vectors = embedder.embed(catalog.map(catalogFieldText));
    byCatalog.set(catalog, vectors);
    // A failed call is not remembered: the next suggestion tries again.
    vectors.catch(() => byCatalog.delete(catalog));
  }
  return vectors;
}

/** Echo: the best match when its name is free, else its type under a name made from the description. */
function fromRetrieval(
  input: SuggestFieldInput,
  ranked: readonly Candidate[],
  taken: ReadonlySet<string>,
): Omit<FieldSuggestion, 'similar'> {
  const best = ranked[0];
  const about = `for "${input.description.trim()}"`;
  if (best && !taken.has(best.field.name)) {
    const suggestion = validOr(copyField(best.field, best.field.name), best.field.name);
    return {
      suggestion,
      rationale: `The closest match ${about} is ${describe(best)}; ${input.collection.name} has no field of that name, so it is suggested as is.`,
    };
  }
  const name = uniqueFieldName(deriveFieldName(input.description) ?? best?.field.name ?? 'field', taken);
  if (!best)
    return {
      suggestion: { name, type: 'string', required: false },
      rationale: `No similar field was found ${about}; a string field is the plainest fit.`,
    };
  return {
    suggestion: validOr(copyField(best.field, name), name),
    rationale:
      `The closest match ${about} is ${describe(best)}, but ${input.collection.name} already has a field named "${best.field.name}"; ` +
      `the suggestion keeps its type under the name "${name}", made from the description.`,
  };
}

function describe(candidate: Candidate): string {
  const where = candidate.collection === CATALOG_COLLECTION ? 'the built-in catalog' : `collection ${candidate.collection}`;
  return `"${candidate.field.name}" (${candidate.field.type}) from ${where}, similarity ${roundScore(candidate.score)}`;
}

/** A new field (never required: the collection may hold items already) with the candidate's type and options. */
function copyField(field: Field, name: string): Field {
  return { name, type: field.type, required: false, ...(field.options ? { options: structuredClone(field.options) } : {}) };
}

function validOr(field: Field, name: string): Field {
  const parsed = Field.safeParse(field);
  return parsed.success ? parsed.data : { name, type: 'string', required: false };
}

const SUGGEST_TOOL = {
  name: 'suggest_field',
  description: 'Answer with the one field to add to the collection, and why.',
  parameters: {
    type: 'object',
    properties: {
      name: { type: 'string', pattern: NAME_PATTERN.source, description: 'snake_case; not a name the collection already has' },
      type: { type: 'string', enum: [...FIELD_TYPES] },
      required: { type: 'boolean' },
      options: {
        type: 'object',
        description: 'Type-specific options; an enum field needs {"values": ["a", "b", ...]} (non-empty strings)',
      },
      rationale: { type: 'string', description: 'One or two sentences: why this field, and which similar fields informed it' },
    },
    required: ['name', 'type', 'rationale'],
  },
};

const SYSTEM = [
  'You suggest one new field for a collection of a headless CMS, from the admin’s description and similar fields retrieved from the site and from a catalog of common fields.',
  `A field has a name matching ${NAME_PATTERN.source}, a type (one of ${FIELD_TYPES.join(', ')}), required (prefer false), and options (an enum needs options.values, a non-empty list of strings).`,
  'The name must not be one the collection already has. Answer only by calling suggest_field once.',
  DATA_RULES,
].join('\n');

async function fromModel(
  input: SuggestFieldInput,
  ranked: readonly Candidate[],
  taken: ReadonlySet<string>,
  model: JsonModel,
  signal: AbortSignal | undefined,
): Promise<Omit<FieldSuggestion, 'similar'>> {
  const user = [
    dataBlock('request', { description: input.description }),
    dataBlock('collection', {
      name: input.collection.name,
      ...(input.collection.label ? { label: input.collection.label } : {}),
      fields: input.collection.fields.map(({ name, type, options }) => ({ name, type, ...(options ? { options } : {}) })),
    }),
    dataBlock(
      'similar_fields',
      ranked.slice(0, PROMPT_CANDIDATES).map(({ collection, field, description, score }) => ({
        source: collection === CATALOG_COLLECTION ? 'catalog' : `collection ${collection}`,
        name: field.name,
        type: field.type,
        ...(field.options ? { options: field.options } : {}),
        ...(description ? { description } : {}),
        similarity: roundScore(score),
      })),
    ),
    `Suggest one new field for collection ${input.collection.name} that fits the request.`,
  ].join('\n\n');
  const answer = await model.completeJson({ system: SYSTEM, user, answer: SUGGEST_TOOL, ...(signal ? { signal } : {}) });
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer))
    throw new ModelAnswerRejectedError('The model’s suggestion was refused: it is not a JSON object');
  const { rationale, ...rest } = answer as Record<string, unknown>;
  const parsed = Field.safeParse({
    name: rest.name,
    type: rest.type,
    required: rest.required ?? false,
    ...(rest.options === undefined ? {} : { options: rest.options }),
  });
  if (!parsed.success)
    throw new ModelAnswerRejectedError(
      'The model’s suggestion was refused: it is not a valid field',
      detailsFromZodIssues(parsed.error.issues).map((detail) => ({
        ...detail,
        path: detail.path ? `suggestion.${detail.path}` : 'suggestion',
      })),
    );
  if (taken.has(parsed.data.name))
    throw new ModelAnswerRejectedError(
      `The model’s suggestion was refused: ${input.collection.name} already has a field named "${parsed.data.name}"`,
    );
  const text = typeof rationale === 'string' && rationale.trim() !== '' ? rationale.trim().slice(0, RATIONALE_MAX) : undefined;
  return { suggestion: parsed.data, rationale: text ?? `Suggested by ${model.name} from the description and the similar fields.` };
}
