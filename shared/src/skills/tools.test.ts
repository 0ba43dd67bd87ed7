import { describe, expect, it } from 'vitest';
import { SKILL_LIST, SKILL_NAMES } from './catalog.js';
import { getAISkillsAsAnthropicTools, getAISkillsAsTools, getSkillToolSpecs } from './tools.js';

// Keywords OpenAI function calling and Anthropic tool use accept in parameters (a draft-07 subset).
const ALLOWED_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'description',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'default',
  'anyOf',
]);

function keywordsOf(schema: unknown, found = new Set<string>()): Set<string> {
  if (schema === null || typeof schema !== 'object') return found;
  for (const [key, value] of Object.entries(schema)) {
    found.add(key);
    if (key === 'properties') for (const property of Object.values(value as object)) keywordsOf(property, found);
    else if (key === 'items' || key === 'additionalProperties') keywordsOf(value, found);
    else if (key === 'anyOf') for (const branch of value as unknown[]) keywordsOf(branch, found);
  }
  return found;
}

describe('getAISkillsAsTools', () => {
  const tools = getAISkillsAsTools();

  it('lists the 14 skills as OpenAI function tools with object parameters', () => {
    expect(tools.map((tool) => tool.function.name)).toEqual(SKILL_NAMES);
    for (const tool of tools) {
      expect(tool.type).toBe('function');
      expect(Object.keys(tool.function).sort()).toEqual(['description', 'name', 'parameters']);
      expect(tool.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(tool.function.parameters.type).toBe('object');
      expect(tool.function.parameters.additionalProperties).toBe(false);
    }
  });

  it('emits plain inline JSON Schema: no $schema, $ref, $defs, propertyNames or empty sub-schemas', () => {
    for (const tool of tools) {
      const text = JSON.stringify(tool.function.parameters);
      for (const forbidden of ['$schema', '$ref', '$defs', 'definitions', 'propertyNames', '"additionalProperties":{}', '"items":{}'])
        expect(text).not.toContain(forbidden);
      for (const keyword of keywordsOf(tool.function.parameters)) expect(ALLOWED_KEYWORDS).toContain(keyword);
      expect(JSON.parse(text)).toEqual(tool.function.parameters);
    }
  });

  it('marks exactly the arguments docs/API.md requires as required', () => {
    const required = Object.fromEntries(tools.map((tool) => [tool.function.name, tool.function.parameters.required ?? []]));
    expect(required).toEqual({
      listCollections: [],
      createCollection: ['name'],
      deleteCollection: ['name'],
      createField: ['collection', 'field'],
      updateField: ['collection', 'field', 'changes'],
      deleteField: ['collection', 'field'],
      listItems: ['collection'],
      createItem: ['collection', 'data'],
      updateItem: ['collection', 'id', 'data'],
      deleteItem: ['collection', 'id'],
      deleteUser: ['userId'],
      aiSuggestField: ['collection', 'description'],
      aiContentAssist: ['collection', 'field', 'instruction'],
      searchItems: ['query'],
    });
    const properties = Object.fromEntries(
      tools.map((tool) => [tool.function.name, Object.keys(tool.function.parameters.properties as object)]),
    );
    expect(properties.createCollection).toEqual(['name', 'label', 'fields']);
    expect(properties.listItems).toEqual(['collection', 'limit', 'offset']);
    expect(properties.aiContentAssist).toEqual(['collection', 'field', 'instruction', 'itemId']);
  });
});

describe('getAISkillsAsAnthropicTools', () => {
  it('carries the same schemas as input_schema', () => {
    const specs = getSkillToolSpecs();
    expect(getAISkillsAsAnthropicTools()).toEqual(
      specs.map((spec) => ({ name: spec.name, description: spec.description, input_schema: spec.parameters })),
    );
    expect(specs).toHaveLength(SKILL_LIST.length);
  });
});
