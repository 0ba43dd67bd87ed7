// Retrieval-augmented skills: suggestions drawn from the site's schema and similar stored items.
import { z } from 'zod';
import { defineSkill } from './define-skill.js';
import { argumentText as text } from './argument-text.js';
import { noReply, replyCount as count, replyList as list, replyRecord as record } from './reply-words.js';
import { CollectionName, FieldName, LongText, RecordId } from './arguments.js';

export const aiSuggestField = defineSkill({
  name: 'aiSuggestField',
  description:
    "Suggest a field configuration (name, type, options) for a collection from the admin's description and the existing schema. " +
    'It only suggests: creating the field is a separate createField call.',
  parameters: z.strictObject({
    collection: CollectionName,
    description: LongText.describe('What the field should hold, in the admin’s words'),
  }),
  requiredCapabilities: ['schema:read'],
  dangerous: false,
  action: 'Suggest a field',
  readsContent: true,
  callsModel: true,
  confirmByName: false,
  describe: () => undefined,
  reply: {
    doing: noReply,
    done: (data, args) => {
      const suggestion = record(data.suggestion);
      const name = text(suggestion.name);
      if (!name) return undefined;
      const type = text(suggestion.type) ?? 'string';
      return `I suggest the ${type} field ${name}${suggestion.required === true ? ' (required)' : ''}. Nothing was changed: add it with “add field ${name} to ${text(args.collection) ?? '<collection>'} as ${type}”.`;
    },
  },
  example: (collection) => `suggest field for ${collection}: a short summary`,
});

export const aiContentAssist = defineSkill({
  name: 'aiContentAssist',
  description:
    'Draft or revise the content of one field, guided by similar stored items. Returns a proposal; it does not save it ' +
    '(saving is a createItem or updateItem call).',
  parameters: z.strictObject({
    collection: CollectionName,
    field: FieldName,
    instruction: LongText.describe('What to write or how to revise it'),
    itemId: RecordId.optional().describe('The item whose field to revise; omit to draft new content'),
  }),
  requiredCapabilities: ['content:read'],
  dangerous: false,
  action: 'Draft content',
  readsContent: true,
  callsModel: true,
  confirmByName: false,
  describe: () => undefined,
  reply: {
    doing: noReply,
    done: (data) => {
      const field = text(data.field) ?? 'the field';
      const sources = list(data.sources).length;
      const value = typeof data.value === 'string' ? `“${data.value}”` : JSON.stringify(data.value);
      return sources > 0
        ? `The closest existing text for ${field}, taken from ${count(sources, 'similar item')}: ${value}. Nothing was saved.`
        : `A value for ${field}: ${value}. Nothing was saved.`;
    },
  },
  example: () => 'list collections',
});
