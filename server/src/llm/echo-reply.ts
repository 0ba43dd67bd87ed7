// The echo planner's replies: one plain sentence per tool result, saying what it did or asked for
// ("Listed 2 collections: posts, events." / "Deleting the collection posts needs an admin's approval;
// I have asked for it." / "I can't do that: …"). Deterministic; reads only the results it is given.
import { SIMILARITY_CLOSE, SIMILARITY_FLOOR } from '@lumibase/shared';

/** A tool result as the turn hands it to a planner (services/copilot/planner-messages.ts `toolContent`). */
export interface EchoToolResult {
  tool?: string | null;
  status?: string;
  data?: unknown;
  approvalId?: string;
  message?: string;
  details?: { path?: string; message?: string }[];
}

type Args = Record<string, unknown>;
type Data = Record<string, unknown>;

const NAMES_SHOWN = 5;

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const record = (value: unknown): Data => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Data) : {});
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** "a, b, c and 4 more" */
function names(values: readonly string[]): string {
  const shown = values.slice(0, NAMES_SHOWN).join(', ');
  return values.length > NAMES_SHOWN ? `${shown} and ${values.length - NAMES_SHOWN} more` : shown;
}

/** An item as people name it: its title or name when it has one, else its id. */
export function itemTitle(item: unknown): string {
  const { id, data } = record(item);
  const values = record(data);
  const title = str(values.title) ?? str(values.name) ?? str(values.headline) ?? str(values.label);
  return title ? `“${title}”` : `item ${str(id) ?? '(no id)'}`;
}

/** What a call that waits for approval would do, as the start of a sentence ("Deleting the collection posts"). */
const DOING: Record<string, (args: Args) => string | undefined> = {
  createCollection: ({ name }) => str(name) && `Creating the collection ${name}`,
  deleteCollection: ({ name }) => str(name) && `Deleting the collection ${name}`,
  createField: ({ collection, field }) => {
    const name = str(record(field).name);
    return str(collection) && name && `Adding the field ${name} to ${collection}`;
  },
  updateField: ({ collection, field, changes }) => {
    const { name, required } = record(changes);
    if (!str(collection) || !str(field)) return undefined;
    if (str(name)) return `Renaming the field ${field} of ${collection} to ${name}`;
    if (typeof required === 'boolean') return `Making the field ${field} of ${collection} ${required ? 'required' : 'optional'}`;
    return `Changing the field ${field} of ${collection}`;
  },
  deleteField: ({ collection, field }) => str(collection) && str(field) && `Removing the field ${field} from ${collection}`,
  createItem: ({ collection }) => str(collection) && `Creating an item in ${collection}`,
  updateItem: ({ collection, id }) => str(collection) && str(id) && `Changing item ${id} in ${collection}`,
  deleteItem: ({ collection, id }) => str(collection) && str(id) && `Deleting item ${id} from ${collection}`,
  deleteUser: ({ userId }) => str(userId) && `Removing the member ${userId} from this site`,
};

/** What an executed call did, from its result. */
const DONE: Record<string, (data: Data, args: Args) => string | undefined> = {
  listCollections: (data) => {
    const collections = list(data.collections).map((collection) => str(record(collection).name) ?? '?');
    return collections.length === 0
      ? 'There are no collections yet.'
      : `Listed ${plural(collections.length, 'collection')}: ${names(collections)}.`;
  },
  listItems: (data, args) => {
    const items = list(data.items);
    const collection = str(data.collection) ?? str(args.collection) ?? 'the collection';
    const total = typeof data.total === 'number' ? data.total : items.length;
    if (total === 0) return `${collection} has no items yet.`;
    const shown = items.length < total ? `${items.length} of ${plural(total, 'item')}` : plural(total, 'item');
    return `Listed ${shown} in ${collection}: ${names(items.map(itemTitle))}.`;
  },
  searchItems: (data) => {
    // Hits under the similarity floor are noise: never reported as matches (nonsense finds nothing).
    const scored = list(data.items).filter(
      (hit) => typeof record(hit).score !== 'number' || (record(hit).score as number) >= SIMILARITY_FLOOR,
    );
    const close = scored.filter((hit) => typeof record(hit).score !== 'number' || (record(hit).score as number) >= SIMILARITY_CLOSE);
    const query = str(data.query) ?? '';
    if (scored.length === 0) return `Nothing in the site matched “${query}”.`;
    const named = (hits: unknown[]) =>
      names(hits.map((hit) => `${itemTitle(record(hit).item ?? hit)} in ${str(record(hit).collection) ?? '?'}`));
    if (close.length === 0) return `Nothing in the site is close to “${query}”; loosely related: ${named(scored)}.`;
    return `The closest ${close.length === 1 ? 'match' : `${close.length} matches`} for “${query}”: ${named(close)}.`;
  },
  createItem: (data, args) => `Created ${itemTitle(data)} in ${str(record(data).collection) ?? str(args.collection) ?? 'the collection'}.`,
  updateItem: (data, args) => `Updated ${itemTitle(data)} in ${str(record(data).collection) ?? str(args.collection) ?? 'the collection'}.`,
  aiSuggestField: (data, args) => {
    const suggestion = record(data.suggestion);
    const name = str(suggestion.name);
    if (!name) return undefined;
    const type = str(suggestion.type) ?? 'string';
    return `I suggest the ${type} field ${name}${suggestion.required === true ? ' (required)' : ''}. Nothing was changed: add it with “add field ${name} to ${str(args.collection) ?? '<collection>'} as ${type}”.`;
  },
  aiContentAssist: (data) => {
    const field = str(data.field) ?? 'the field';
    const sources = list(data.sources).length;
    const value = typeof data.value === 'string' ? `“${data.value}”` : JSON.stringify(data.value);
    return sources > 0
      ? `The closest existing text for ${field}, taken from ${plural(sources, 'similar item')}: ${value}. Nothing was saved.`
      : `A value for ${field}: ${value}. Nothing was saved.`;
  },
};

function deniedSentence(result: EchoToolResult): string {
  const why = str(result.message) ?? 'it was refused';
  const detail = list(result.details)
    .map((entry) => record(entry))
    .map((entry) => [str(entry.path), str(entry.message)].filter(Boolean).join(': '))
    .filter((text) => text !== '' && !why.includes(text));
  return `I can't do that: ${why.replace(/[.\s]+$/, '')}${detail.length > 0 ? ` (${detail.slice(0, 3).join('; ')})` : ''}.`;
}

/** One sentence for one tool result; `args` are the call's arguments as the planner made them. */
export function echoReplySentence(result: EchoToolResult, args: Args): string {
  const skill = str(result.tool) ?? '';
  switch (result.status) {
    case 'executed': {
      const sentence = Object.hasOwn(DONE, skill) ? DONE[skill]!(record(result.data), args) : undefined;
      return sentence ?? 'Done.';
    }
    // What the model hears of a call that needs approval is "planned" (a step of the turn's plan, API.md "Runs and
    // plans"); a plan of one step reads as the request it is.
    case 'pending_approval':
    case 'planned': {
      const doing = Object.hasOwn(DOING, skill) ? DOING[skill]!(args) : undefined;
      return `${doing ?? 'That'} needs an admin's approval; I have asked for it.`;
    }
    default:
      return deniedSentence(result);
  }
}
