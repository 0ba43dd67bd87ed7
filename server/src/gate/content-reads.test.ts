// Every kind of content read the contract lists becomes readBefore (docs/API.md, "The gate's tiers and limits"), from the
// skill definitions' readsContent fact: listItems, searchItems, aiContentAssist, aiSuggestField, listCollections, and the
// item a write skill returns. Skills that only change schema or delete return no content.
import { type ReadBefore, SKILL_LIST } from '@lumibase/shared';
import { describe, expect, it } from 'vitest';
import { contentReadsOf } from '../copilot/copilot-turn.js';
import { noteReads, readsContent } from './content-reads.js';

const item = (id: string, title = 'x') => ({ id, collection: 'posts', data: { title } });

const CASES: Array<{ skill: string; args: unknown; data: unknown; reads: ReadBefore[] }> = [
  {
    skill: 'listItems',
    args: { collection: 'posts' },
    data: { items: [item('a'), item('b')], total: 2 },
    reads: [
      { skill: 'listItems', collection: 'posts', id: 'a' },
      { skill: 'listItems', collection: 'posts', id: 'b' },
    ],
  },
  {
    skill: 'searchItems',
    args: { query: 'launch' },
    data: [{ collection: 'news', id: 'n1', score: 0.9, snippet: 's', item: item('n1') }],
    reads: [{ skill: 'searchItems', collection: 'news', id: 'n1' }],
  },
  {
    skill: 'aiContentAssist',
    args: { collection: 'posts', field: 'title', instruction: 'shorter', itemId: 'a' },
    data: { field: 'title', value: 'x', rationale: 'r', sources: [] },
    reads: [{ skill: 'aiContentAssist', collection: 'posts', id: 'a' }],
  },
  {
    skill: 'aiSuggestField',
    args: { collection: 'posts', description: 'a date' },
    data: { suggestion: { name: 'date', type: 'datetime' }, rationale: 'r', similar: [] },
    reads: [{ skill: 'aiSuggestField', collection: 'posts' }],
  },
  {
    skill: 'listCollections',
    args: {},
    data: [{ id: 'c1', name: 'posts', label: 'Posts', fields: [] }],
    reads: [{ skill: 'listCollections' }],
  },
  {
    skill: 'createItem',
    args: { collection: 'posts', data: {} },
    data: item('new'),
    reads: [{ skill: 'createItem', collection: 'posts', id: 'new' }],
  },
  {
    skill: 'updateItem',
    args: { collection: 'posts', id: 'a', data: {} },
    data: item('a', 'the whole item comes back'),
    reads: [{ skill: 'updateItem', collection: 'posts', id: 'a' }],
  },
];

describe('content reads', () => {
  it('are the skills whose definition says so: every read kind the contract lists, and the writes that return an item', () => {
    expect(
      SKILL_LIST.filter((skill) => readsContent(skill.name))
        .map((skill) => skill.name)
        .sort(),
    ).toEqual(CASES.map((entry) => entry.skill).sort());
  });

  for (const { skill, args, data, reads } of CASES)
    it(`counts what ${skill} read`, () => {
      const readBefore: ReadBefore[] = [];
      noteReads(readBefore, skill, args, data);
      expect(readBefore).toEqual(reads);
      // The same reads told back in a conversation's history count for a later turn.
      expect(contentReadsOf([{ status: 'executed', skill: { name: skill, arguments: args }, data }])).toEqual(reads);
    });

  it('counts nothing for outcomes that were not executed', () => {
    expect(
      contentReadsOf([
        { status: 'denied', skill: { name: 'listItems', arguments: { collection: 'posts' } }, reason: 'turned_off', message: 'off' },
      ]),
    ).toEqual([]);
  });
});
