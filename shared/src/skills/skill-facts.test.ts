// The per-skill facts on the definitions: what the Studio, the Copilot turn and the echo planner read.
import { describe, expect, it } from 'vitest';
import { isDangerous } from '../risk.js';
import { SKILL_LIST, SKILLS } from './catalog.js';

/** Strings for every argument a sentence may name, as the model would give them. */
const STRING_ARGUMENTS = { name: 'posts', collection: 'posts', field: 'summary', id: 'i_1', userId: 'u_1' };

describe('the facts on each skill’s definition', () => {
  it('marks exactly the skills whose results are users’ content as reading content', () => {
    const reading = SKILL_LIST.filter((skill) => skill.readsContent).map((skill) => skill.name);
    expect(reading.sort()).toEqual([
      'aiContentAssist',
      'aiSuggestField',
      'createItem',
      'listCollections',
      'listItems',
      'searchItems',
      'updateItem',
    ]);
  });

  it('asks an approver to type the name only to delete a collection', () => {
    const confirming = SKILL_LIST.filter((skill) => skill.confirmByName !== false).map((skill) => [skill.name, skill.confirmByName]);
    expect(confirming).toEqual([['deleteCollection', 'name']]);
  });

  it('describes every dangerous call in one plain sentence that names no skill', () => {
    const args = STRING_ARGUMENTS;
    for (const skill of SKILL_LIST.filter((candidate) => isDangerous(candidate))) {
      const sentence = skill.name === 'createField' ? skill.describe({ ...args, field: { name: 'summary' } }) : skill.describe(args);
      expect(sentence, skill.name).toMatch(/^[A-Z].*\.$/);
      // Plain English: no camelCase word, so no skill name either.
      expect(sentence, skill.name).not.toMatch(/\b[a-z]+[A-Z]\w*/);
    }
    expect(SKILLS.deleteCollection.describe({ name: 'posts' })).toBe('Deletes the collection posts and all of its items.');
    expect(SKILLS.createField.describe({ collection: 'posts', field: { name: 'summary', type: 'text' } })).toBe(
      'Adds the field summary to posts.',
    );
  });

  it('says nothing about a call whose named arguments are not strings', () => {
    for (const skill of SKILL_LIST) {
      expect(skill.describe({}), skill.name).toBeUndefined();
      expect(skill.describe({ name: 7, collection: ['posts'], field: null, id: {}, userId: '' }), skill.name).toBeUndefined();
    }
  });

  it('gives the echo planner the start of a sentence for every call that waits for approval, and nothing for arguments that are not strings', () => {
    for (const skill of SKILL_LIST.filter((candidate) => isDangerous(candidate))) {
      const args = skill.name === 'createField' ? { ...STRING_ARGUMENTS, field: { name: 'summary' } } : STRING_ARGUMENTS;
      expect(skill.reply.doing(args), skill.name).toMatch(/^[A-Z][^.]*[^.\s]$/);
    }
    for (const skill of SKILL_LIST) expect(skill.reply.doing({}), skill.name).toBeUndefined();
    expect(SKILLS.deleteField.reply.doing({ collection: 'posts', field: 'summary' })).toBe('Removing the field summary from posts');
    expect(SKILLS.listCollections.reply.done({ collections: [] }, {})).toBe('There are no collections yet.');
  });

  it('names every skill as an action and gives it an example with the site’s collection', () => {
    for (const skill of SKILL_LIST) {
      expect(skill.action, skill.name).toMatch(/^[A-Z][a-z]+( [a-z]+)*$/);
      expect(skill.example('recipes').length, skill.name).toBeGreaterThan(0);
    }
    expect(SKILLS.deleteField.example('recipes')).toBe('delete field summary from recipes');
    expect(SKILLS.createCollection.example('recipes')).toBe('create collection articles');
  });
});
