// A skill call in plain words for the person deciding on it ("Deletes the collection posts and all of its items").
// Arguments are whatever the model produced: each sentence is used only when the fields it names are strings.

type Args = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

const SENTENCES: Record<string, (args: Args) => string | undefined> = {
  createCollection: ({ name }) => text(name) && `Creates the collection ${name}.`,
  deleteCollection: ({ name }) => text(name) && `Deletes the collection ${name} and all of its items.`,
  createField: ({ collection, field }) => {
    const name = typeof field === 'object' && field !== null ? text((field as Args).name) : undefined;
    return text(collection) && name && `Adds the field ${name} to ${collection}.`;
  },
  updateField: ({ collection, field }) => text(collection) && text(field) && `Changes the field ${field} of ${collection}.`,
  deleteField: ({ collection, field }) =>
    text(collection) && text(field) && `Removes the field ${field} from ${collection}, and its values from every item.`,
  createItem: ({ collection }) => text(collection) && `Creates an item in ${collection}.`,
  updateItem: ({ collection, id }) => text(collection) && text(id) && `Changes item ${id} in ${collection}.`,
  deleteItem: ({ collection, id }) => text(collection) && text(id) && `Deletes item ${id} from ${collection}.`,
  deleteUser: ({ userId }) => text(userId) && `Removes user ${userId} from this site.`,
};

export function describeSkillCall(skillName: string, args: Args): string | undefined {
  return Object.hasOwn(SENTENCES, skillName) ? SENTENCES[skillName]?.(args) || undefined : undefined;
}
