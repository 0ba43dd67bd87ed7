import { describe, expect, it } from 'vitest';
import { isDangerous } from './risk.js';
import { SKILL_LIST, SKILL_NAMES, SKILLS } from './skills/catalog.js';
import { defineSkill } from './skills/define-skill.js';

/**
 * Each skill's danger, decided by a person: a skill added to the catalog fails the first test until it is added here.
 * These are the seeds' lists (ADR-003): the schema changes and the deletions wait for a human.
 */
const DANGEROUS: Record<string, boolean> = {
  listCollections: false,
  createCollection: true,
  deleteCollection: true,
  createField: true,
  updateField: true,
  deleteField: true,
  listItems: false,
  createItem: false,
  updateItem: false,
  deleteItem: true,
  deleteUser: true,
  aiSuggestField: false,
  aiContentAssist: false,
  searchItems: false,
};

describe('each skill’s danger (property 4: the risk rule)', () => {
  it('is listed in the table for every skill of the catalog, and the table names no other', () => {
    expect([...SKILL_NAMES].sort()).toEqual(Object.keys(DANGEROUS).sort());
  });

  it('is what the table says, for every skill', () => {
    for (const skill of SKILL_LIST) {
      expect(skill.dangerous, skill.name).toBe(DANGEROUS[skill.name]);
      expect(isDangerous(skill), skill.name).toBe(DANGEROUS[skill.name]);
    }
  });

  it('follows the seeds’ rule for every skill: dangerous iff it requires schema:write or its name starts with delete', () => {
    for (const skill of SKILL_LIST) {
      const requiresSchemaWrite = (skill.requiredCapabilities as readonly string[]).includes('schema:write');
      expect(skill.dangerous, skill.name).toBe(requiresSchemaWrite || skill.name.startsWith('delete'));
    }
  });

  it('is read from the definition’s field, not guessed from the name or the capabilities', () => {
    expect(isDangerous({ ...SKILLS.listItems, dangerous: true })).toBe(true);
    expect(isDangerous({ ...SKILLS.deleteItem, dangerous: false })).toBe(false);
    expect(isDangerous({ ...SKILLS.createField, dangerous: false })).toBe(false);
  });

  it('must be true for a skill named delete…: saying otherwise does not compile (tsc checks this file)', () => {
    expect(defineSkill({ ...SKILLS.deleteItem, confirmByName: false, dangerous: true }).dangerous).toBe(true);
    // @ts-expect-error a skill named delete… cannot be safe
    expect(defineSkill({ ...SKILLS.deleteItem, confirmByName: false, dangerous: false }).dangerous).toBe(false);
  });
});
