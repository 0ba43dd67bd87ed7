import { describe, expect, it } from 'vitest';
import { SKILL_LIST, SKILL_NAMES, SKILLS } from '../skills/catalog.js';
import { writes } from '../skills/define-skill.js';
import { allowedModes, permittedMode, SKILL_MODES } from './skill-modes.js';

const DANGEROUS = ['ask', 'off'];
const READS = ['auto', 'ask', 'off'];
const WRITES_SAFELY = ['auto', 'warn', 'ask', 'off'];

/** The modes each skill may have in a site's policy (docs/API.md, "The gate's tiers and limits"). */
const ALLOWED: Record<string, string[]> = {
  listCollections: READS,
  createCollection: DANGEROUS,
  deleteCollection: DANGEROUS,
  createField: DANGEROUS,
  updateField: DANGEROUS,
  deleteField: DANGEROUS,
  listItems: READS,
  createItem: WRITES_SAFELY,
  updateItem: WRITES_SAFELY,
  deleteItem: DANGEROUS,
  deleteUser: DANGEROUS,
  aiSuggestField: READS,
  aiContentAssist: READS,
  searchItems: READS,
};

describe('the modes a skill may have', () => {
  it('are listed here for every skill of the catalog', () => {
    expect([...SKILL_NAMES].sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it('are auto, warn, ask and off for a safe write, no warn for a read, only ask and off for a dangerous skill', () => {
    for (const skill of SKILL_LIST) expect(allowedModes(skill), skill.name).toEqual(ALLOWED[skill.name]);
  });

  it('read a mode the skill may not have as ask for a dangerous skill and as auto for a read', () => {
    expect(permittedMode(SKILLS.deleteItem, 'auto')).toBe('ask');
    expect(permittedMode(SKILLS.deleteItem, 'warn')).toBe('ask');
    expect(permittedMode(SKILLS.createCollection, 'off')).toBe('off');
    expect(permittedMode(SKILLS.listItems, 'warn')).toBe('auto');
    expect(permittedMode(SKILLS.listItems, 'ask')).toBe('ask');
    for (const mode of SKILL_MODES) expect(permittedMode(SKILLS.updateItem, mode)).toBe(mode);
  });
});

describe('writes', () => {
  it('is true exactly for the skills that need a capability beyond reading', () => {
    const writing = SKILL_LIST.filter((skill) => writes(skill)).map((skill) => skill.name);
    expect(writing.sort()).toEqual(
      [
        'createCollection',
        'deleteCollection',
        'createField',
        'updateField',
        'deleteField',
        'createItem',
        'updateItem',
        'deleteItem',
        'deleteUser',
      ].sort(),
    );
  });

  it('counts the wildcard and approvals:decide as more than reading', () => {
    expect(writes({ requiredCapabilities: ['content:read', '*'] })).toBe(true);
    expect(writes({ requiredCapabilities: ['approvals:decide'] })).toBe(true);
    expect(writes({ requiredCapabilities: ['schema:read', 'content:read'] })).toBe(false);
    expect(writes({ requiredCapabilities: [] })).toBe(false);
  });
});
