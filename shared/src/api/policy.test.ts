import { describe, expect, it } from 'vitest';
import { SKILL_NAMES, SKILLS } from '../skills/catalog.js';
import { effectivePolicy, PutPolicyRequest } from './policy.js';
import { allowedModes, SKILL_MODES } from './skill-modes.js';

const refusal = (body: unknown) => {
  const parsed = PutPolicyRequest.safeParse(body);
  return parsed.success ? undefined : parsed.error.issues.map((issue) => issue.message);
};

describe('PUT /ai/policy’s modes', () => {
  it('accepts exactly the modes each skill may have', () => {
    for (const name of SKILL_NAMES)
      for (const mode of SKILL_MODES)
        expect(PutPolicyRequest.safeParse({ skills: { [name]: mode } }).success, `${name}: ${mode}`).toBe(
          allowedModes(SKILLS[name]).includes(mode),
        );
  });

  it('says why a mode is refused', () => {
    expect(refusal({ skills: { deleteItem: 'auto' } })).toEqual(['deleteItem is dangerous and can never run without an approval']);
    expect(refusal({ skills: { createField: 'warn' } })).toEqual(['createField is dangerous and can never run without an approval']);
    expect(refusal({ skills: { searchItems: 'warn' } })).toEqual(['searchItems only reads: warn is for skills that write']);
    expect(refusal({ skills: { removeUser: 'ask' } })).toEqual(['unknown skill "removeUser"']);
    expect(refusal({ skills: { updateItem: 'warn', deleteUser: 'off', listItems: 'ask' } })).toBeUndefined();
  });
});

describe('the effective policy', () => {
  it('has the seeds’ defaults: dangerous skills ask, the others run at once', () => {
    expect(effectivePolicy(null).skills).toEqual({
      listCollections: 'auto',
      createCollection: 'ask',
      deleteCollection: 'ask',
      createField: 'ask',
      updateField: 'ask',
      deleteField: 'ask',
      listItems: 'auto',
      createItem: 'auto',
      updateItem: 'auto',
      deleteItem: 'ask',
      deleteUser: 'ask',
      aiSuggestField: 'auto',
      aiContentAssist: 'auto',
      searchItems: 'auto',
    });
  });

  it('reads a stored mode a skill may not have as ask (dangerous) or auto (a read), and keeps the others', () => {
    const skills = effectivePolicy({
      skills: { deleteItem: 'auto', deleteField: 'warn', listItems: 'warn', createItem: 'warn', updateItem: 'off', searchItems: 'ask' },
    }).skills;
    expect(skills).toMatchObject({
      deleteItem: 'ask',
      deleteField: 'ask',
      listItems: 'auto',
      createItem: 'warn',
      updateItem: 'off',
      searchItems: 'ask',
    });
  });
});
