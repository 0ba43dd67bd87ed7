import { describe, expect, it } from 'vitest';
import { CAPABILITIES } from '../capabilities.js';
import { isDangerous } from '../risk.js';
import { SKILL_LIST, SKILL_NAMES, SKILLS, findSkill, isSkillName } from './catalog.js';

const EXPECTED_NAMES = [
  'listCollections',
  'createCollection',
  'deleteCollection',
  'createField',
  'updateField',
  'deleteField',
  'listItems',
  'createItem',
  'updateItem',
  'deleteItem',
  'deleteUser',
  'aiSuggestField',
  'aiContentAssist',
  'searchItems',
];

const EXPECTED_CAPABILITIES: Record<string, string[]> = {
  listCollections: ['schema:read'],
  createCollection: ['schema:write'],
  deleteCollection: ['schema:write'],
  createField: ['schema:write'],
  updateField: ['schema:write'],
  deleteField: ['schema:write'],
  listItems: ['content:read'],
  createItem: ['content:write'],
  updateItem: ['content:write'],
  deleteItem: ['content:write'],
  deleteUser: ['users:write'],
  aiSuggestField: ['schema:read'],
  aiContentAssist: ['content:read'],
  searchItems: ['content:read'],
};

describe('the skill catalog', () => {
  it('holds the 13 skills of the seeds and searchItems, each under its own name', () => {
    expect(SKILL_NAMES).toEqual(EXPECTED_NAMES);
    expect(SKILL_LIST).toHaveLength(14);
    for (const name of SKILL_NAMES) expect(SKILLS[name].name).toBe(name);
  });

  it('gives every skill the capabilities of docs/API.md and an LLM-facing description', () => {
    for (const skill of SKILL_LIST) {
      expect([...skill.requiredCapabilities]).toEqual(EXPECTED_CAPABILITIES[skill.name]);
      for (const capability of skill.requiredCapabilities) expect(CAPABILITIES).toContain(capability);
      expect(skill.description.length).toBeGreaterThan(30);
    }
  });

  it('classifies exactly the schema-changing and deleting skills as dangerous', () => {
    const dangerous = SKILL_LIST.filter((skill) => isDangerous(skill)).map((skill) => skill.name);
    expect(dangerous.sort()).toEqual(
      ['createCollection', 'deleteCollection', 'createField', 'updateField', 'deleteField', 'deleteItem', 'deleteUser'].sort(),
    );
  });

  it('finds skills by their own names only, never by inherited ones', () => {
    expect(findSkill('deleteItem')).toBe(SKILLS.deleteItem);
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'listcollections', 'ListCollections', '']) {
      expect(isSkillName(name)).toBe(false);
      expect(findSkill(name)).toBeUndefined();
    }
  });

  it('is frozen, so no caller can widen a skill’s capabilities at run time', () => {
    expect(Object.isFrozen(SKILLS.deleteUser)).toBe(true);
    expect(Object.isFrozen(SKILLS.deleteUser.requiredCapabilities)).toBe(true);
  });
});
