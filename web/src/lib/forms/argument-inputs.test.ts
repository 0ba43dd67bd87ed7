// The form's inputs come from the skills' JSON Schema (the tools' parameters), one kind per kind of property.
import { describe, expect, it } from 'vitest';
import { argumentInputs, schemaInputs } from './argument-inputs.js';

const COLLECTION_HINT = 'Collection name: lowercase letters, digits and _, starting with a letter';
const FIELD_TYPES = ['string', 'text', 'number', 'integer', 'boolean', 'datetime', 'json', 'enum'];

describe('argument inputs', () => {
  it('makes a group of a nested object, a choice of an enum, a required yes/no of a defaulted boolean, JSON of a record', () => {
    expect(argumentInputs('createField')).toEqual([
      { path: 'collection', label: 'Collection', optional: false, hint: COLLECTION_HINT, kind: 'text' },
      {
        // Its description spells out JSON for the model: no hint.
        path: 'field',
        label: 'Field',
        optional: false,
        kind: 'group',
        children: [
          { path: 'field.name', label: 'Name', optional: false, kind: 'text' },
          { path: 'field.type', label: 'Type', optional: false, kind: 'choice', choices: FIELD_TYPES },
          { path: 'field.required', label: 'Required', optional: false, kind: 'boolean' },
          { path: 'field.options', label: 'Options', optional: true, kind: 'json' },
        ],
      },
    ]);
  });

  it('reads optional whole numbers, lengths, lists and optional groups’ members', () => {
    expect(argumentInputs('listItems').slice(1)).toEqual([
      { path: 'limit', label: 'Limit', optional: true, hint: 'How many items (default 25, at most 100)', kind: 'integer' },
      { path: 'offset', label: 'Offset', optional: true, hint: 'How many items to skip', kind: 'integer' },
    ]);
    expect(argumentInputs('createCollection').slice(1)).toEqual([
      { path: 'label', label: 'Label', optional: true, hint: 'Human-readable label', kind: 'text', maxLength: 200 },
      { path: 'fields', label: 'Fields', optional: true, hint: 'Initial fields', kind: 'json' },
    ]);
    expect(argumentInputs('updateField')[2]?.children?.map(({ path, kind, optional }) => [path, kind, optional])).toEqual([
      ['changes.name', 'text', true],
      ['changes.type', 'choice', true],
      ['changes.required', 'boolean', true],
      ['changes.options', 'json', true],
    ]);
    expect(argumentInputs('deleteUser')).toEqual([
      { path: 'userId', label: 'User ID', optional: false, hint: 'The id of the user', kind: 'text', maxLength: 200 },
    ]);
    expect(argumentInputs('noSuchSkill')).toEqual([]);
  });

  it('reads a nullable property as the schema it is when given, and a decimal as a number', () => {
    const inputs = schemaInputs({
      type: 'object',
      properties: {
        ratio: { type: 'number', description: 'A share' },
        note: { anyOf: [{ type: 'string', maxLength: 20 }, { type: 'null' }], description: 'Left out or null' },
        tags: { type: 'array', items: { type: 'string' } },
        empty: { type: 'object', properties: {} },
      },
      required: ['ratio', 'note', 'tags', 'empty'],
    });
    expect(inputs).toEqual([
      { path: 'ratio', label: 'Ratio', optional: false, hint: 'A share', kind: 'number' },
      { path: 'note', label: 'Note', optional: false, hint: 'Left out or null', kind: 'text', maxLength: 20 },
      { path: 'tags', label: 'Tags', optional: false, kind: 'json' },
      { path: 'empty', label: 'Empty', optional: false, kind: 'group', children: [] },
    ]);
  });
});
