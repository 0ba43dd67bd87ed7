// Skills that read or change the site's schema: collections and their fields.
import { z } from 'zod';
import { argumentText as text } from './argument-text.js';
import { defineSkill } from './define-skill.js';
import { noReply, replyCount as count, replyList as list, replyNames as names, replyRecord as record } from './reply-words.js';
import { CollectionName, FieldName, FieldPatch, StrictField } from './arguments.js';

const GATED = 'It changes the schema, so it is queued for a human admin to approve before it runs.';

export const listCollections = defineSkill({
  name: 'listCollections',
  description: "List the site's collections with their fields. Use it to learn the schema before changing it or its content.",
  parameters: z.strictObject({}),
  requiredCapabilities: ['schema:read'],
  dangerous: false,
  action: 'List collections',
  readsContent: true,
  callsModel: false,
  confirmByName: false,
  describe: () => undefined,
  reply: {
    doing: noReply,
    done: (data) => {
      const collections = list(data.collections).map((collection) => text(record(collection).name) ?? '?');
      return collections.length === 0
        ? 'There are no collections yet.'
        : `Listed ${count(collections.length, 'collection')}: ${names(collections)}.`;
    },
  },
  example: () => 'list collections',
});

export const createCollection = defineSkill({
  name: 'createCollection',
  description: `Create a collection (a content type), optionally with a label and fields. ${GATED}`,
  parameters: z.strictObject({
    name: CollectionName,
    label: z.string().min(1).max(200).optional().describe('Human-readable label'),
    fields: z.array(StrictField).max(200).optional().describe('Initial fields'),
  }),
  requiredCapabilities: ['schema:write'],
  dangerous: true,
  action: 'Create a collection',
  readsContent: false,
  callsModel: false,
  confirmByName: false,
  describe: ({ name }) => text(name) && `Creates the collection ${name}.`,
  reply: { doing: ({ name }) => text(name) && `Creating the collection ${name}`, done: noReply },
  example: () => 'create collection articles',
});

export const deleteCollection = defineSkill({
  name: 'deleteCollection',
  description: `Delete a collection together with all of its items; they go to the trash, restorable by an admin until the trash retention ends. ${GATED}`,
  parameters: z.strictObject({ name: CollectionName }),
  requiredCapabilities: ['schema:write'],
  dangerous: true,
  action: 'Delete a collection',
  readsContent: false,
  callsModel: false,
  // Deleting a whole collection is approved only after typing its name.
  confirmByName: 'name',
  describe: ({ name }) => text(name) && `Deletes the collection ${name} and all of its items.`,
  reply: { doing: ({ name }) => text(name) && `Deleting the collection ${name}`, done: noReply },
  example: (collection) => `delete collection ${collection}`,
});

export const createField = defineSkill({
  name: 'createField',
  description: `Add a field to a collection. ${GATED}`,
  parameters: z.strictObject({ collection: CollectionName, field: StrictField }),
  requiredCapabilities: ['schema:write'],
  dangerous: true,
  action: 'Add a field',
  readsContent: false,
  callsModel: false,
  confirmByName: false,
  describe: ({ collection, field }) => {
    const name = typeof field === 'object' && field !== null ? text((field as Record<string, unknown>).name) : undefined;
    return text(collection) && name && `Adds the field ${name} to ${collection}.`;
  },
  reply: {
    doing: ({ collection, field }) => {
      const name = text(record(field).name);
      return text(collection) && name && `Adding the field ${name} to ${collection}`;
    },
    done: noReply,
  },
  example: (collection) => `add field summary to ${collection} as text`,
});

export const updateField = defineSkill({
  name: 'updateField',
  description: `Change a field of a collection (rename it, change its type, whether it is required, or its options). ${GATED}`,
  parameters: z.strictObject({
    collection: CollectionName,
    field: FieldName.describe('The current name of the field to change'),
    changes: FieldPatch.describe('Only the properties to change'),
  }),
  requiredCapabilities: ['schema:write'],
  dangerous: true,
  action: 'Change a field',
  readsContent: false,
  callsModel: false,
  confirmByName: false,
  describe: ({ collection, field }) => text(collection) && text(field) && `Changes the field ${field} of ${collection}.`,
  reply: {
    doing: ({ collection, field, changes }) => {
      const { name, required } = record(changes);
      if (!text(collection) || !text(field)) return undefined;
      if (text(name)) return `Renaming the field ${field} of ${collection} to ${name}`;
      if (typeof required === 'boolean') return `Making the field ${field} of ${collection} ${required ? 'required' : 'optional'}`;
      return `Changing the field ${field} of ${collection}`;
    },
    done: noReply,
  },
  example: (collection) => `rename field summary in ${collection} to teaser`,
});

export const deleteField = defineSkill({
  name: 'deleteField',
  description: `Delete a field from a collection; its values are removed from every item and go to the trash with the field, restorable by an admin until the trash retention ends. ${GATED}`,
  parameters: z.strictObject({ collection: CollectionName, field: FieldName }),
  requiredCapabilities: ['schema:write'],
  dangerous: true,
  action: 'Delete a field',
  readsContent: false,
  callsModel: false,
  confirmByName: false,
  describe: ({ collection, field }) =>
    text(collection) && text(field) && `Removes the field ${field} from ${collection}, and its values from every item.`,
  reply: {
    doing: ({ collection, field }) => text(collection) && text(field) && `Removing the field ${field} from ${collection}`,
    done: noReply,
  },
  example: (collection) => `delete field summary from ${collection}`,
});
