// The registry's questions about a call, answered by the call's own module.
import { SKILL_NAMES } from '@lumibase/shared';
import { describe, expect, it } from 'vitest';
import { createdCollection } from './skill-modules.js';

describe('createdCollection', () => {
  it('names the collection a createCollection call creates', () => {
    expect(createdCollection('createCollection', { name: 'posts', fields: [] })).toBe('posts');
  });

  it('names none for any other skill, or a name that is no skill', () => {
    for (const name of SKILL_NAMES.filter((candidate) => candidate !== 'createCollection'))
      expect(createdCollection(name, { name: 'posts', collection: 'posts' }), name).toBeUndefined();
    expect(createdCollection('toString', { name: 'posts' })).toBeUndefined();
  });
});
