// aiContentAssist's logic: a value for one field, drawn from the item itself and retrieved similar items, either
// extractively (echo, deterministic) or by one model call whose answer must fit the field's type.
import type { Field } from '@lumibase/shared';
import { roundScore } from './cosine.js';
import { headlineOf, leadSentences, topicOf } from './extract-text.js';
import { fieldValueSchema, valueProblem } from './field-value.js';
import type { JsonModel } from './json-model.js';
import { DATA_RULES, dataBlock, trimStrings } from './prompt-data.js';
import { ModelAnswerRejectedError } from './rag-errors.js';

export interface AssistedItem {
  id: string;
  data: Record<string, unknown>;
}

export interface SimilarItem extends AssistedItem {
  collection: string;
  /** Cosine similarity to the query, in [-1, 1]. */
  score: number;
}

export interface ContentAssistInput {
  collection: string;
  field: Field;
  instruction: string;
  /** The item whose field is revised (with itemId); absent when drafting new content. */
  item?: AssistedItem | undefined;
  /** Retrieved items, best first; the item itself, if among them, is skipped. */
  similar: readonly SimilarItem[];
}

export interface ContentSource {
  collection: string;
  id: string;
  score: number;
}

export interface ContentAssistResult {
  field: string;
  /** Fits the field's type (validateItemData accepts it). */
  value: unknown;
  rationale: string;
  sources: ContentSource[];
}

export interface ContentAssistDependencies {
  /** Absent (echo): the value is extracted deterministically. */
  model?: JsonModel | undefined;
  signal?: AbortSignal;
}

/** Bounds of extracted text: a summary of a few sentences, a title of a few words. */
export const TEXT_SUMMARY_MAX = 300;
export const STRING_PHRASE_MAX = 80;
const SUMMARY_ROOM = 120;
const PROMPT_ITEMS = 8;
const PROMPT_STRING_MAX = 1500;
const RATIONALE_MAX = 1000;

export async function assistContent(
  input: ContentAssistInput,
  { model, signal }: ContentAssistDependencies = {},
): Promise<ContentAssistResult> {
  const similar = input.similar.filter((entry) => !(input.item && entry.collection === input.collection && entry.id === input.item.id));
  if (!model) return fromRetrieval({ ...input, similar });
  return fromModel({ ...input, similar }, model, signal);
}

interface Draft {
  value: unknown;
  rationale: string;
  sources: ContentSource[];
}

function fromRetrieval(input: ContentAssistInput): ContentAssistResult {
  const draft = extract(input);
  // Every branch yields a fitting value; this keeps the promise even if one is wrong.
  const value = valueProblem(input.field, draft.value) === undefined ? draft.value : fallbackValue(input.field);
  return { field: input.field.name, value, rationale: draft.rationale, sources: draft.sources };
}

function extract(input: ContentAssistInput): Draft {
  const { field, item } = input;
  const self = item ? [{ collection: input.collection, id: item.id, score: 1 }] : [];
  const fitting = input.similar.flatMap((entry) => {
    const value = entry.data[field.name];
    return value !== undefined && value !== null && valueProblem(field, value) === undefined ? [{ entry, value }] : [];
  });
  const sourcesOf = (entries: readonly { entry: SimilarItem }[]) =>
    entries.map(({ entry }) => ({ collection: entry.collection, id: entry.id, score: roundScore(entry.score) }));
  const own = item ? item.data[field.name] : undefined;
  const ownFits = own !== undefined && own !== null && valueProblem(field, own) === undefined;

  switch (field.type) {
    case 'text':
    case 'string': {
      const bound = field.type === 'text' ? TEXT_SUMMARY_MAX : STRING_PHRASE_MAX;
      // A summary is shorter than its source: at most half of it (but room for a sentence or two), never over the bound.
      const shape = (text: string) =>
        field.type === 'text'
          ? leadSentences(text, Math.min(bound, Math.max(SUMMARY_ROOM, Math.ceil(text.length / 2))))
          : headlineOf(text, bound);
      const what = field.type === 'text' ? 'leading sentences' : 'opening words';
      if (field.type === 'string') {
        // A value several similar items share (an author, a category) is likelier right than a phrase.
        const common = mostCommon(fitting.map(({ value }) => value as string));
        if (common && common.count >= 2)
          return {
            value: common.value,
            rationale: `"${common.value}" is the value ${common.count} of the similar items share.`,
            sources: sourcesOf(fitting.filter(({ value }) => value === common.value)),
          };
      }
      const longest = item ? longestText(item.data) : undefined;
      if (longest) {
        const value = shape(longest.text);
        if (value) return { value, rationale: `The ${what} of the item’s own text (field "${longest.field}").`, sources: self };
      }
      const top = fitting.find(({ value }) => shape(value as string) !== '');
      if (top)
        return {
          value: shape(top.value as string),
          rationale: `The ${what} of the most similar item’s "${field.name}" (${top.entry.collection} ${top.entry.id}).`,
          sources: sourcesOf([top]),
        };
      return {
        value: shape(topicOf(input.instruction)),
        rationale: 'Nothing similar to draw from: the topic the instruction names.',
        sources: [],
      };
    }
    case 'enum': {
      const options = enumValues(field);
      const common = mostCommon(
        fitting.map(({ value }) => value as string),
        options,
      );
      if (common)
        return {
          value: common.value,
          rationale: `"${common.value}" is the most common value among the similar items (${common.count} of ${fitting.length}).`,
          sources: sourcesOf(fitting.filter(({ value }) => value === common.value)),
        };
      return { value: options[0], rationale: `No similar item has a value: the first option, "${options[0]}".`, sources: [] };
    }
    case 'number':
    case 'integer': {
      const numbers = fitting.map(({ value }) => value as number);
      if (numbers.length > 0) {
        const middle = median(numbers);
        const value = field.type === 'integer' ? Math.round(middle) : middle;
        return { value, rationale: `The median of ${numbers.length} similar items’ values.`, sources: sourcesOf(fitting) };
      }
      if (ownFits) return { value: own, rationale: 'No similar item has a value: the item’s own is kept.', sources: self };
      return { value: 0, rationale: 'Nothing to draw from: zero.', sources: [] };
    }
    case 'boolean': {
      const yes = fitting.filter(({ value }) => value === true);
      const no = fitting.filter(({ value }) => value === false);
      if (yes.length !== no.length) {
        const majority = yes.length > no.length;
        return {
          value: majority,
          rationale: `${Math.max(yes.length, no.length)} of ${fitting.length} similar items have ${majority}.`,
          sources: sourcesOf(majority ? yes : no),
        };
      }
      if (ownFits) return { value: own, rationale: 'The similar items are split: the item’s own value is kept.', sources: self };
      return { value: false, rationale: 'Nothing decides it: false.', sources: sourcesOf(fitting) };
    }
    case 'datetime': {
      const stated = dateIn(input.instruction);
      if (stated) return { value: stated, rationale: 'The date the instruction names.', sources: [] };
      if (ownFits) return { value: own, rationale: 'The item’s own date is kept.', sources: self };
      const latest = [...fitting].sort((a, b) => Date.parse(b.value as string) - Date.parse(a.value as string))[0];
      if (latest)
        return {
          value: latest.value,
          rationale: `The latest date among the similar items (${latest.entry.collection} ${latest.entry.id}).`,
          sources: sourcesOf([latest]),
        };
      return { value: fallbackValue(field), rationale: 'No date to draw from: the epoch, for the admin to change.', sources: [] };
    }
    case 'json': {
      if (ownFits) return { value: own, rationale: 'The item’s own value is kept.', sources: self };
      const top = fitting[0];
      if (top)
        return {
          value: structuredClone(top.value),
          rationale: `The most similar item’s value (${top.entry.collection} ${top.entry.id}).`,
          sources: sourcesOf([top]),
        };
      return { value: {}, rationale: 'Nothing to draw from: an empty object.', sources: [] };
    }
  }
}

/** A value of the field's type when nothing else fits. */
function fallbackValue(field: Field): unknown {
  switch (field.type) {
    case 'string':
    case 'text':
      return '';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'datetime':
      return '1970-01-01T00:00:00.000Z';
    case 'json':
      return {};
    case 'enum':
      return enumValues(field)[0];
  }
}

function enumValues(field: Field): string[] {
  const values = field.options?.values;
  return Array.isArray(values) ? values.filter((value): value is string => typeof value === 'string') : [];
}

/** The most frequent value; ties go to the one first in `order` (when given) or first seen. */
function mostCommon(values: readonly string[], order?: readonly string[]): { value: string; count: number } | undefined {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  const rank = (value: string) => (order ? order.indexOf(value) : 0);
  let best: { value: string; count: number } | undefined;
  for (const [value, count] of counts)
    if (!best || count > best.count || (count === best.count && rank(value) < rank(best.value))) best = { value, count };
  return best;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The item's longest non-blank string value, and its field. */
function longestText(data: Record<string, unknown>): { field: string; text: string } | undefined {
  let best: { field: string; text: string } | undefined;
  for (const [field, value] of Object.entries(data))
    if (typeof value === 'string' && value.trim() !== '' && (!best || value.length > best.text.length)) best = { field, text: value };
  return best;
}

/** An ISO date (and time) written in the instruction, as an ISO date-time in UTC. */
function dateIn(instruction: string): string | undefined {
  const match = /\b(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?))?\s*(Z|[+-]\d{2}:\d{2})?/.exec(instruction);
  if (!match) return undefined;
  const [, date, time = '00:00:00', zone = 'Z'] = match;
  const milliseconds = Date.parse(`${date}T${time.length === 5 ? `${time}:00` : time}${zone}`);
  return Number.isNaN(milliseconds) ? undefined : new Date(milliseconds).toISOString();
}

const SYSTEM = [
  'You draft or revise the value of one field of an item in a headless CMS, following the admin’s instruction and guided by similar stored items.',
  'The value must fit the field’s type exactly. Answer only by calling propose_value once.',
  DATA_RULES,
].join('\n');

async function fromModel(input: ContentAssistInput, model: JsonModel, signal: AbortSignal | undefined): Promise<ContentAssistResult> {
  const { field, item } = input;
  const shown = input.similar.slice(0, PROMPT_ITEMS);
  const user = [
    dataBlock('request', { instruction: input.instruction }),
    dataBlock('field', {
      collection: input.collection,
      name: field.name,
      type: field.type,
      ...(field.options ? { options: field.options } : {}),
    }),
    ...(item ? [dataBlock('item', { id: item.id, data: trimStrings(item.data, PROMPT_STRING_MAX) })] : []),
    dataBlock(
      'similar_items',
      shown.map((entry) => ({
        collection: entry.collection,
        id: entry.id,
        similarity: roundScore(entry.score),
        data: trimStrings(entry.data, PROMPT_STRING_MAX),
      })),
    ),
    item
      ? `Revise the value of field ${field.name} of the item, as the request says.`
      : `Draft a value for field ${field.name} of a new item of ${input.collection}, as the request says.`,
  ].join('\n\n');
  const tool = {
    name: 'propose_value',
    description: `Answer with the value for field ${field.name} (${field.type}) and why.`,
    parameters: {
      type: 'object',
      properties: {
        value: fieldValueSchema(field),
        rationale: { type: 'string', description: 'One or two sentences: what the value draws on' },
      },
      required: ['value', 'rationale'],
    },
  };
  const answer = await model.completeJson({ system: SYSTEM, user, answer: tool, ...(signal ? { signal } : {}) });
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer) || !Object.hasOwn(answer, 'value'))
    throw new ModelAnswerRejectedError(`The model’s answer was refused: it has no value for "${field.name}"`);
  const { value, rationale } = answer as { value: unknown; rationale?: unknown };
  const problem = value === null ? 'No value' : valueProblem(field, value);
  if (problem !== undefined)
    throw new ModelAnswerRejectedError(
      `The model’s value for "${field.name}" was refused: it does not fit the field’s type ${field.type}`,
      [{ path: 'value', message: problem }],
    );
  const sources = [
    ...(item ? [{ collection: input.collection, id: item.id, score: 1 }] : []),
    ...shown.map((entry) => ({ collection: entry.collection, id: entry.id, score: roundScore(entry.score) })),
  ];
  const text = typeof rationale === 'string' && rationale.trim() !== '' ? rationale.trim().slice(0, RATIONALE_MAX) : undefined;
  return { field: field.name, value, rationale: text ?? `Written by ${model.name} from the instruction and the similar items.`, sources };
}
