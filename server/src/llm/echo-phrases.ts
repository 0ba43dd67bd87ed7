// The echo planner's phrase table (docs/API.md "The echo planner's phrases"), one entry per phrase.
//
// Matching rules: the whole message must match once politeness and filler around it are dropped
// ("please", "can you", "for me", trailing `.`/`!`/`?`); keywords, articles and the usual verbs
// (list/show, create/add/make, delete/remove/drop, update/change/set) are case-insensitive, and
// both word orders work ("collection posts", "the posts collection"). Names, ids and JSON are kept
// as typed. Invalid parts still make a tool call, so the harness's validation denies it with details.
import { FIELD_TYPES } from '@lumibase/shared';

export interface EchoToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

type Parts = Record<string, string | undefined>;

export interface EchoPhrase {
  usage: string;
  /** One phrase that works, with the site's first collection (or a stand-in) where it names one. */
  example(collection: string): string;
  /** Alternatives (word orders); each names its parts with the same named groups. */
  patterns: readonly RegExp[];
  toToolCall(parts: Parts): EchoToolCall;
}

/** A `<json>` part: the parsed value when it is JSON (object or not), else the text as typed. */
function jsonPart(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const WORDS: Record<string, string> = {
  // Articles, possessives and quantifiers before a noun, as many as are typed ("all of my", "a new").
  ART: '(?:(?:the|a|an|my|our|all|of|this|new|existing)\\s+)*',
  LIST: '(?:list|show|get|display|view|see|what\\s+are|which\\s+are|give\\s+me|tell\\s+me)(?:\\s+me)?',
  CREATE: '(?:create|add|make|new|set\\s+up)',
  DELETE: '(?:delete|remove|drop|erase|destroy|get\\s+rid\\s+of)',
  UPDATE: '(?:update|change|set|edit|modify)',
  IN: '(?:in|of|from|on)',
  TO: '(?:to|in|on|into)',
};

const NAMED = '(?:(?:called|named)\\s+)?';
const C = `(?<collection>[^\\s:]+)`;
const F = `(?<field>[^\\s:]+)`;
/** A collection named as the object of a verb: "collection posts" or "posts collection". */
const COLLECTION_OBJECT = [`collection ${NAMED}${C}`, `${C} collection`];
/** A collection after a preposition: also bare ("to posts"). */
const COLLECTION_AFTER = [...COLLECTION_OBJECT, C];
const FIELD_OBJECT = [`field ${NAMED}${F}`, `${F} field`];

/**
 * Patterns from a template: `{ART}` and the verb words expand to their alternatives, a space
 * matches any run of white space, and every `[[…]]` slot is tried with each of its variants.
 */
function patterns(template: string, slots: readonly (readonly string[])[] = []): RegExp[] {
  const sources = slots.reduce<string[]>(
    (partial, variants, index) => partial.flatMap((source) => variants.map((variant) => source.replace(`[[${index}]]`, variant))),
    [template],
  );
  return sources.map(
    (source) => new RegExp(`^${source.replace(/\{(\w+)\}/g, (_, word: string) => WORDS[word] ?? word).replaceAll(' ', '\\s+')}$`, 'i'),
  );
}

const REST = '(?<rest>[\\s\\S]*)';
const TYPE = `(?<type>${FIELD_TYPES.join('|')})`;

export const ECHO_PHRASES: readonly EchoPhrase[] = [
  {
    usage: 'list collections',
    example: () => 'list collections',
    patterns: [
      ...patterns('{LIST} {ART}collections?(?: {IN} {ART}(?:site|cms))?'),
      ...patterns('(?:what|which) collections(?: (?:are there|exist|do (?:i|we) have|does (?:the|this|my) site have))?'),
      ...patterns('collections'),
    ],
    toToolCall: () => ({ name: 'listCollections', arguments: {} }),
  },
  {
    usage: 'create collection <name>',
    example: () => 'create collection articles',
    patterns: patterns('{CREATE} {ART}[[0]]', [COLLECTION_OBJECT]),
    toToolCall: ({ collection }) => ({ name: 'createCollection', arguments: { name: collection } }),
  },
  {
    usage: 'delete collection <name>',
    example: (collection) => `delete collection ${collection}`,
    patterns: patterns('{DELETE} {ART}[[0]]', [COLLECTION_OBJECT]),
    toToolCall: ({ collection }) => ({ name: 'deleteCollection', arguments: { name: collection } }),
  },
  {
    usage: 'add field <field> to <collection> [as <type>]',
    example: (collection) => `add field summary to ${collection} as text`,
    patterns: [
      ...patterns('{CREATE} {ART}[[0]] {TO} {ART}[[1]](?: as (?:an? )?(?<type>\\S+))?', [FIELD_OBJECT, COLLECTION_AFTER]),
      // "add a text field summary to posts"
      ...patterns(`{CREATE} {ART}${TYPE} field ${NAMED}${F} {TO} {ART}[[0]]`, [COLLECTION_AFTER]),
    ],
    toToolCall: ({ field, collection, type }) => ({
      name: 'createField',
      arguments: { collection, field: { name: field, type: type === undefined ? 'string' : type.toLowerCase() } },
    }),
  },
  {
    usage: 'rename field <field> in <collection> to <name>',
    example: (collection) => `rename field body in ${collection} to content`,
    patterns: patterns('rename {ART}[[0]] {IN} {ART}[[1]] (?:to|as) (?<name>\\S+)', [FIELD_OBJECT, COLLECTION_AFTER]),
    toToolCall: ({ field, collection, name }) => ({ name: 'updateField', arguments: { collection, field, changes: { name } } }),
  },
  {
    usage: 'make field <field> in <collection> required|optional',
    example: (collection) => `make field title in ${collection} required`,
    patterns: patterns(
      '(?:make|set|mark) {ART}[[0]] {IN} {ART}[[1]] (?:as |to be |to )?(?<mode>required|mandatory|optional|not required)',
      [FIELD_OBJECT, COLLECTION_AFTER],
    ),
    toToolCall: ({ field, collection, mode }) => ({
      name: 'updateField',
      arguments: { collection, field, changes: { required: /^(?:required|mandatory)$/i.test(mode ?? '') } },
    }),
  },
  {
    usage: 'delete field <field> from <collection>',
    example: (collection) => `delete field summary from ${collection}`,
    patterns: patterns('{DELETE} {ART}[[0]] {IN} {ART}[[1]]', [FIELD_OBJECT, COLLECTION_AFTER]),
    toToolCall: ({ field, collection }) => ({ name: 'deleteField', arguments: { collection, field } }),
  },
  {
    usage: 'list items in <collection>',
    example: (collection) => `list items in ${collection}`,
    patterns: [
      ...patterns('{LIST} {ART}(?:items|entries|records) {IN} {ART}[[0]]', [COLLECTION_AFTER]),
      ...patterns(`{LIST} {ART}${C} (?:items|entries|records)`),
    ],
    toToolCall: ({ collection }) => ({ name: 'listItems', arguments: { collection } }),
  },
  {
    usage: 'create item in <collection> with <json>',
    example: (collection) => `create item in ${collection} with {"title": "Hello"}`,
    patterns: [
      ...patterns(`{CREATE} {ART}(?:item|entry) {TO} {ART}[[0]] with ${REST}`, [COLLECTION_AFTER]),
      ...patterns(`{CREATE} {ART}${C} (?:item|entry) with ${REST}`),
    ],
    toToolCall: ({ collection, rest }) => ({ name: 'createItem', arguments: { collection, data: jsonPart(rest!) } }),
  },
  {
    usage: 'update item <id> in <collection> with <json>',
    example: (collection) => `update item <id> in ${collection} with {"title": "Hello again"}`,
    patterns: patterns(`{UPDATE} {ART}(?:item|entry) (?<id>\\S+) {IN} {ART}[[0]] (?:with|to|set to) ${REST}`, [COLLECTION_AFTER]),
    toToolCall: ({ id, collection, rest }) => ({ name: 'updateItem', arguments: { collection, id, data: jsonPart(rest!) } }),
  },
  {
    usage: 'delete item <id> from <collection>',
    example: (collection) => `delete item <id> from ${collection}`,
    patterns: patterns('{DELETE} {ART}(?:item|entry) (?<id>\\S+) {IN} {ART}[[0]]', [COLLECTION_AFTER]),
    toToolCall: ({ id, collection }) => ({ name: 'deleteItem', arguments: { collection, id } }),
  },
  {
    usage: 'delete user <userId>',
    example: () => 'delete user <userId>',
    patterns: patterns('{DELETE} {ART}(?:user|member) (?<id>\\S+)(?: from {ART}(?:site|team))?'),
    toToolCall: ({ id }) => ({ name: 'deleteUser', arguments: { userId: id } }),
  },
  {
    usage: 'suggest field for <collection>: <description>',
    example: (collection) => `suggest field for ${collection}: how long it takes to read`,
    patterns: patterns(`suggest {ART}(?:new )?field (?:for|in|to) {ART}[[0]]\\s*:\\s*${REST}`, [COLLECTION_AFTER]),
    toToolCall: ({ collection, rest }) => ({ name: 'aiSuggestField', arguments: { collection, description: rest } }),
  },
  {
    usage: 'assist <field> of item <id> in <collection>: <instruction>',
    example: (collection) => `assist body of item <id> in ${collection}: make it friendlier`,
    patterns: patterns(`assist ${F} of {ART}item (?<id>\\S+) {IN} {ART}[[0]]\\s*:\\s*${REST}`, [COLLECTION_AFTER]),
    toToolCall: ({ field, id, collection, rest }) => ({
      name: 'aiContentAssist',
      arguments: { collection, field, instruction: rest, itemId: id },
    }),
  },
  {
    usage: 'assist <field> in <collection>: <instruction>',
    example: (collection) => `assist body in ${collection}: a friendly welcome`,
    patterns: patterns(`assist ${F} {IN} {ART}[[0]]\\s*:\\s*${REST}`, [COLLECTION_AFTER]),
    toToolCall: ({ field, collection, rest }) => ({ name: 'aiContentAssist', arguments: { collection, field, instruction: rest } }),
  },
  // `search for …` first: otherwise `search for cats for dogs` would read `for` as a collection name.
  {
    usage: 'search for <query>',
    example: () => 'search for chocolate cake',
    patterns: patterns(`(?:search|look) for ${REST}`),
    toToolCall: ({ rest }) => ({ name: 'searchItems', arguments: { query: rest } }),
  },
  {
    usage: 'search <collection> for <query>',
    example: (collection) => `search ${collection} for launch`,
    patterns: patterns(`search {ART}[[0]] for ${REST}`, [COLLECTION_AFTER]),
    toToolCall: ({ collection, rest }) => ({ name: 'searchItems', arguments: { collection, query: rest } }),
  },
];

const LEADING_FILLER =
  /^(?:(?:hi|hey|hello|ok|okay|so|now|please|kindly|pls|can you|could you|would you|will you|i want to|i['’]d like to|i would like to|i need to|let['’]?s|go ahead and|help me|just)\s*,?\s+)+/i;
const TRAILING_FILLER = /(?:\s*,?\s+(?:please|pls|for me|thanks|thank you|now))+$/i;

/** The message as the phrases see it: trimmed, trailing `.`, `!` and `?` and the politeness around it dropped. */
export function normalizeEchoMessage(message: string): string {
  const bare = (text: string) =>
    text
      .trim()
      .replace(/[.!?]+$/, '')
      .trimEnd();
  let text = bare(message);
  // JSON and free text end many phrases: filler is dropped only where it cannot be part of them.
  text = text.replace(LEADING_FILLER, '');
  if (!/[}\]"]$/.test(text)) text = bare(text.replace(TRAILING_FILLER, ''));
  return text;
}

export function matchEchoPhrase(message: string): EchoToolCall | undefined {
  const text = normalizeEchoMessage(message);
  for (const entry of ECHO_PHRASES) {
    for (const pattern of entry.patterns) {
      const match = pattern.exec(text);
      if (match) return entry.toToolCall(match.groups ?? {});
    }
  }
  return undefined;
}

/** "create collection events with fields title and date as datetime": the collection, then one field per name. */
const COLLECTION_WITH_FIELDS = patterns(`{CREATE} {ART}[[0]] with {ART}fields? (?<list>.+)`, [COLLECTION_OBJECT]);
const FIELD_ITEM = new RegExp(
  `^(?:(?:an?|the)\\s+)?(?:(?<before>${FIELD_TYPES.join('|')})\\s+)?(?:field\\s+)?(?<name>[^\\s,]+)(?:\\s+as\\s+(?:an?\\s+)?(?<after>\\S+))?$`,
  'i',
);
/** Clauses of a message asking for several things in turn: "…; …", "… and then …", "…, then …". */
const CLAUSE_BREAK = /\s*;\s*|\s*,?\s+and\s+then\s+|\s*,\s*then\s+/i;

/**
 * The calls a message asks for, in order (docs/API.md "The echo planner's phrases"): one phrase; or a collection with its
 * fields ("create collection events with fields title and date"), a collection and a field call each; or clauses
 * joined by ";" / "and then", each one phrase (all of them must match). Several calls make the turn a plan.
 */
export function matchEchoCalls(message: string): EchoToolCall[] {
  const single = matchEchoPhrase(message);
  if (single) return [single];
  const text = normalizeEchoMessage(message);
  for (const pattern of COLLECTION_WITH_FIELDS) {
    const match = pattern.exec(text);
    if (!match?.groups?.collection || !match.groups.list) continue;
    const items = match.groups.list.split(/\s*,\s*(?:and\s+)?|\s+and\s+/i).filter(Boolean);
    const fields = items.map((item) => FIELD_ITEM.exec(item)?.groups);
    if (fields.some((groups) => !groups?.name)) break;
    const collection = match.groups.collection;
    return [
      { name: 'createCollection', arguments: { name: collection } },
      ...fields.map((groups) => ({
        name: 'createField',
        arguments: { collection, field: { name: groups!.name, type: (groups!.after ?? groups!.before ?? 'string').toLowerCase() } },
      })),
    ];
  }
  const clauses = text.split(CLAUSE_BREAK).filter(Boolean);
  if (clauses.length < 2) return [];
  const calls = clauses.map((clause) => matchEchoCalls(clause));
  return calls.every((found) => found.length > 0) ? calls.flat() : [];
}

/** What the echo planner understands, one example each, with the site's own collection where a phrase names one. */
export function echoHelpText(collections: readonly string[] = []): string {
  const collection = collections[0] ?? 'posts';
  return [
    'I did not recognise that. No AI model is connected (set LLM_PROVIDER and its API key to use one), so I understand these requests:',
    ...ECHO_PHRASES.map((entry) => `- ${entry.usage} — for example “${entry.example(collection)}”`),
  ].join('\n');
}
