import { describe, expect, it } from 'vitest';
import {
  capabilityWords,
  completePhrase,
  copilotIntro,
  explainDenial,
  phraseCandidates,
  skillAction,
  suggestionChips,
} from './copilot-words.js';

const denial = (overrides: Partial<Parameters<typeof explainDenial>[0]>) => ({
  status: 'denied' as const,
  reason: 'invalid_arguments' as const,
  skill: { name: 'createField', arguments: {} },
  message: 'Invalid arguments',
  ...overrides,
});

describe('the Copilot in plain words', () => {
  it('names skills as actions and capabilities as permissions', () => {
    expect(skillAction('createField')).toBe('Add a field');
    expect(skillAction('deleteCollection')).toBe('Delete a collection');
    expect(skillAction('somethingNew')).toBe('somethingNew');
    expect(capabilityWords('schema:write')).toBe('Can change the schema');
    expect(capabilityWords('custom:thing')).toBe('custom:thing');
  });

  it('tells a wrong field type with the types and an example from the site', () => {
    const text = explainDenial(
      denial({
        skill: { name: 'createField', arguments: { collection: 'recipes', field: { name: 'x', type: 'colour' } } },
        details: [{ path: 'field.type', message: 'Invalid option: expected one of "string"|"text"' }],
      }),
      ['recipes'],
    );
    expect(text).toBe(
      'Field type must be one of: string, text, number, integer, boolean, datetime, json, enum — e.g. “add field summary to recipes as text”.',
    );
  });

  it('calls bad JSON bad JSON', () => {
    const text = explainDenial(
      denial({
        skill: { name: 'createItem', arguments: { collection: 'posts', data: '{"title": ' } },
        details: [{ path: 'data', message: 'Invalid input: expected record, received string' }],
      }),
      ['posts'],
    );
    expect(text).toMatch(/^That is bad JSON/);
    expect(text).toContain('create item in posts with {"title": "Hello"}');
  });

  it('says a failed run in one sentence, without the skill’s name twice', () => {
    const text = explainDenial(
      denial({
        reason: 'execution_failed',
        code: 'NOT_FOUND',
        skill: { name: 'listItems', arguments: {} },
        message: 'listItems failed: No collection named pets',
      }),
    );
    expect(text).toBe('Could not list items: no collection named pets. Check the name with “list collections”.');
  });

  it('offers chips and completions only from the collections given', () => {
    expect(suggestionChips([])).toEqual(['list collections', 'create collection articles']);
    expect(suggestionChips(['books'])).toContain('list items in books');
    const candidates = phraseCandidates([{ name: 'books', fields: [{ name: 'isbn' }] }]);
    expect(completePhrase('LIST it', candidates)).toEqual(['list items in books']);
    expect(completePhrase('l', candidates)).toEqual([]);
    expect(completePhrase('list items in books', candidates)).toEqual([]);
    expect(candidates.some((phrase) => phrase.includes('posts'))).toBe(false);
  });
});

describe('a model failure in plain words', () => {
  it('tells its message, since it names no skill', () => {
    const failed = {
      status: 'denied' as const,
      reason: 'model_failed' as const,
      message: 'The Copilot’s language model failed (timeout); nothing more was run. Try again.',
    };
    expect(explainDenial(failed, ['posts'])).toBe(failed.message);
    expect(explainDenial({ ...failed, message: 'The model failed' })).toBe('The model failed.');
  });
});

describe('copilotIntro', () => {
  it('says the echo planner takes short commands and a language model understands plain sentences', () => {
    expect(copilotIntro('echo')).toMatch(/takes short commands/);
    expect(copilotIntro(undefined)).toMatch(/takes short commands/);
    for (const provider of ['openai', 'anthropic', 'gemini', 'workers-ai']) {
      expect(copilotIntro(provider)).toMatch(/understands plain sentences/);
      expect(copilotIntro(provider)).not.toMatch(/short commands/);
    }
  });
});
