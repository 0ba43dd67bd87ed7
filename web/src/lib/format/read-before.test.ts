import { describe, expect, it } from 'vitest';
import { describeReadBefore } from './read-before.js';

describe('describeReadBefore', () => {
  it('says nothing when the model read nothing', () => {
    expect(describeReadBefore(undefined)).toBeUndefined();
    expect(describeReadBefore([])).toBeUndefined();
  });

  it('counts the items read per collection, each item once', () => {
    expect(
      describeReadBefore([
        { skill: 'listItems', collection: 'posts', id: 'p1' },
        { skill: 'listItems', collection: 'posts', id: 'p2' },
        { skill: 'searchItems', collection: 'posts', id: 'p1' },
        { skill: 'searchItems', collection: 'posts', id: 'p3' },
      ]),
    ).toBe('Proposed after reading 3 items of posts');
  });

  it('names every collection, one item in the singular, and a read that named no item by what it was', () => {
    expect(
      describeReadBefore([
        { skill: 'listItems', collection: 'posts', id: 'p1' },
        { skill: 'listItems', collection: 'posts', id: 'p2' },
        { skill: 'aiContentAssist', collection: 'pages', id: 'g1' },
        { skill: 'searchItems', collection: 'authors' },
      ]),
    ).toBe('Proposed after reading 2 items of posts, 1 item of pages and a search of authors');
    expect(describeReadBefore([{ skill: 'searchItems' }])).toBe('Proposed after reading a search of site content');
    expect(describeReadBefore([{ skill: 'futureRead', collection: 'posts' }])).toBe(
      'Proposed after reading the futureRead results of posts',
    );
  });
});
