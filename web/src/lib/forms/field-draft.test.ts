import { describe, expect, it } from 'vitest';
import { draftFromField, fieldChanges, fieldFromDraft, parseEnumValues } from './field-draft.js';

describe('field drafts', () => {
  it('turns the add-field form into a Field, with enum options one per line', () => {
    const draft = { name: ' status ', type: 'enum' as const, required: true, enumValues: 'draft\n\n published \ndraft\n' };
    expect(fieldFromDraft(draft)).toEqual({ name: 'status', type: 'enum', required: true, options: { values: ['draft', 'published'] } });
    expect(fieldFromDraft({ name: 'title', type: 'string', required: false, enumValues: 'ignored' })).toEqual({
      name: 'title',
      type: 'string',
      required: false,
    });
  });

  it('edits send only what changed and keep other options', () => {
    const original = { name: 'status', type: 'enum' as const, required: false, options: { values: ['a'], hint: 'x' } };
    const draft = draftFromField(original);
    expect(draft.enumValues).toBe('a');
    expect(fieldChanges(original, draft)).toEqual({});
    expect(fieldChanges(original, { ...draft, required: true })).toEqual({ required: true });
    expect(fieldChanges(original, { ...draft, enumValues: 'a\nb' })).toEqual({ options: { hint: 'x', values: ['a', 'b'] } });
  });

  it('parses enum values', () => {
    expect(parseEnumValues(' x \n\ny\nx')).toEqual(['x', 'y']);
  });
});
