// The echo planner's phrase table (API.md "The echo planner's phrases"), one entry per phrase.
//
// Matching rules: the whole trimmed message must match, trailing `.`/`!` ignored; keywords (and
// field types, a closed vocabulary) are case-insensitive; names, ids and JSON are kept as typed.
// Invalid parts still make a tool call, so the harness's validation denies it with details.

export interface EchoToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface EchoPhrase {
  usage: string;
  pattern: RegExp;
  toToolCall(parts: string[]): EchoToolCall;
}

/** A `<json>` part: the parsed value when it is JSON (object or not), else the text as typed. */
function jsonPart(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const TOKEN = '(\\S+)';
const REST = '([\\s\\S]*)';

function phrase(source: string): RegExp {
  return new RegExp(`^${source.replaceAll(' ', '\\s+')}$`, 'i');
}

export const ECHO_PHRASES: readonly EchoPhrase[] = [
  {
    usage: 'list collections',
    pattern: phrase('list collections'),
    toToolCall: () => ({ name: 'listCollections', arguments: {} }),
  },
  {
    usage: 'create collection <name>',
    pattern: phrase(`create collection ${TOKEN}`),
    toToolCall: ([name]) => ({ name: 'createCollection', arguments: { name } }),
  },
  {
    usage: 'delete collection <name>',
    pattern: phrase(`delete collection ${TOKEN}`),
    toToolCall: ([name]) => ({ name: 'deleteCollection', arguments: { name } }),
  },
  {
    usage: 'add field <field> to <collection> [as <type>]',
    pattern: phrase(`add field ${TOKEN} to ${TOKEN}(?: as ${TOKEN})?`),
    toToolCall: ([field, collection, type]) => ({
      name: 'createField',
      arguments: { collection, field: { name: field, type: type === undefined ? 'string' : type.toLowerCase() } },
    }),
  },
  {
    usage: 'delete field <field> from <collection>',
    pattern: phrase(`delete field ${TOKEN} from ${TOKEN}`),
    toToolCall: ([field, collection]) => ({ name: 'deleteField', arguments: { collection, field } }),
  },
  {
    usage: 'list items in <collection>',
    pattern: phrase(`list items in ${TOKEN}`),
    toToolCall: ([collection]) => ({ name: 'listItems', arguments: { collection } }),
  },
  {
    usage: 'create item in <collection> with <json>',
    pattern: phrase(`create item in ${TOKEN} with ${REST}`),
    toToolCall: ([collection, json]) => ({ name: 'createItem', arguments: { collection, data: jsonPart(json!) } }),
  },
  {
    usage: 'update item <id> in <collection> with <json>',
    pattern: phrase(`update item ${TOKEN} in ${TOKEN} with ${REST}`),
    toToolCall: ([id, collection, json]) => ({ name: 'updateItem', arguments: { collection, id, data: jsonPart(json!) } }),
  },
  {
    usage: 'delete item <id> from <collection>',
    pattern: phrase(`delete item ${TOKEN} from ${TOKEN}`),
    toToolCall: ([id, collection]) => ({ name: 'deleteItem', arguments: { collection, id } }),
  },
  {
    usage: 'delete user <userId>',
    pattern: phrase(`delete user ${TOKEN}`),
    toToolCall: ([userId]) => ({ name: 'deleteUser', arguments: { userId } }),
  },
  {
    usage: 'suggest field for <collection>: <description>',
    pattern: phrase(`suggest field for (\\S+?)\\s*:\\s*${REST}`),
    toToolCall: ([collection, description]) => ({ name: 'aiSuggestField', arguments: { collection, description } }),
  },
  {
    usage: 'assist <field> in <collection>: <instruction>',
    pattern: phrase(`assist ${TOKEN} in (\\S+?)\\s*:\\s*${REST}`),
    toToolCall: ([field, collection, instruction]) => ({ name: 'aiContentAssist', arguments: { collection, field, instruction } }),
  },
  // `search for …` first: otherwise `search for cats for dogs` would read `for` as a collection name.
  {
    usage: 'search for <query>',
    pattern: phrase(`search for ${REST}`),
    toToolCall: ([query]) => ({ name: 'searchItems', arguments: { query } }),
  },
  {
    usage: 'search <collection> for <query>',
    pattern: phrase(`search ${TOKEN} for ${REST}`),
    toToolCall: ([collection, query]) => ({ name: 'searchItems', arguments: { collection, query } }),
  },
];

/** The message as the phrases see it: trimmed, trailing `.` and `!` dropped. */
export function normalizeEchoMessage(message: string): string {
  return message
    .trim()
    .replace(/[.!]+$/, '')
    .trimEnd();
}

export function matchEchoPhrase(message: string): EchoToolCall | undefined {
  const text = normalizeEchoMessage(message);
  for (const entry of ECHO_PHRASES) {
    const match = entry.pattern.exec(text);
    if (match) return entry.toToolCall(match.slice(1) as string[]);
  }
  return undefined;
}

export function echoHelpText(): string {
  return ['I did not recognise that command. The echo planner understands:', ...ECHO_PHRASES.map((entry) => `- ${entry.usage}`)].join('\n');
}
