import fc from 'fast-check';
import { SKILLS, findSkill, getSkillToolSpecs, parseSkillArguments } from '@lumibase/shared';
import { describe, expect, it } from 'vitest';
import { ECHO_PHRASES } from './echo-phrases.js';
import { EchoPlanner } from './echo-planner.js';
import type { PlannerOutput } from './planner.js';

const planner = new EchoPlanner();
const tools = getSkillToolSpecs();

function plan(message: string, history: { role: 'user' | 'assistant'; content: string }[] = []): Promise<PlannerOutput> {
  return planner.plan({ messages: [...history, { role: 'user', content: message }], tools });
}

async function callOf(message: string) {
  const output = await plan(message);
  expect(output.toolCalls).toHaveLength(1);
  const [call] = output.toolCalls;
  return { name: call!.name, arguments: call!.arguments };
}

/** What the harness will decide about the call: its arguments parse, or the failing paths. */
function validation(call: { name: string; arguments: unknown }) {
  const result = parseSkillArguments(findSkill(call.name)!, call.arguments);
  return result.success ? 'valid' : result.details.map((detail) => detail.path);
}

describe('the echo planner', () => {
  describe('maps each phrase of docs/API.md to its skill', () => {
    const cases: [string, string, Record<string, unknown>][] = [
      ['list collections', 'listCollections', {}],
      ['create collection posts', 'createCollection', { name: 'posts' }],
      ['delete collection posts', 'deleteCollection', { name: 'posts' }],
      ['add field title to posts', 'createField', { collection: 'posts', field: { name: 'title', type: 'string' } }],
      ['add field views to posts as integer', 'createField', { collection: 'posts', field: { name: 'views', type: 'integer' } }],
      ['delete field title from posts', 'deleteField', { collection: 'posts', field: 'title' }],
      ['list items in posts', 'listItems', { collection: 'posts' }],
      [
        'create item in posts with {"title":"Hello world","tags":["a","b"]}',
        'createItem',
        { collection: 'posts', data: { title: 'Hello world', tags: ['a', 'b'] } },
      ],
      [
        'update item 6650f0c2a1b2c3d4e5f60718 in posts with {"title":"New"}',
        'updateItem',
        { collection: 'posts', id: '6650f0c2a1b2c3d4e5f60718', data: { title: 'New' } },
      ],
      ['delete item 6650f0c2a1b2c3d4e5f60718 from posts', 'deleteItem', { collection: 'posts', id: '6650f0c2a1b2c3d4e5f60718' }],
      ['delete user u_42', 'deleteUser', { userId: 'u_42' }],
      [
        'suggest field for posts: a short teaser shown in lists',
        'aiSuggestField',
        { collection: 'posts', description: 'a short teaser shown in lists' },
      ],
      [
        'assist body in posts: make it friendlier',
        'aiContentAssist',
        { collection: 'posts', field: 'body', instruction: 'make it friendlier' },
      ],
      [
        'assist summary of item 6650f0c2a1b2c3d4e5f60718 in posts: one sentence',
        'aiContentAssist',
        { collection: 'posts', field: 'summary', instruction: 'one sentence', itemId: '6650f0c2a1b2c3d4e5f60718' },
      ],
      ['search for chocolate cake recipes', 'searchItems', { query: 'chocolate cake recipes' }],
      ['search posts for chocolate cake', 'searchItems', { collection: 'posts', query: 'chocolate cake' }],
    ];

    it.each(cases)('"%s" → %s', async (message, name, args) => {
      const call = await callOf(message);
      expect(call).toEqual({ name, arguments: args });
      expect(validation(call)).toBe('valid');
    });

    it('covers every phrase of the table, the two updateField phrases, and every skill', () => {
      expect(ECHO_PHRASES).toHaveLength(17);
      const skills = new Set([...cases.map(([, name]) => name), 'updateField']);
      expect([...Object.keys(SKILLS)].filter((name) => !skills.has(name))).toEqual([]);
    });
  });

  describe('reads the message as docs/API.md says', () => {
    it('ignores surrounding whitespace, trailing dots and bangs, and the case of keywords', async () => {
      expect(await callOf('  LIST Collections.  ')).toEqual({ name: 'listCollections', arguments: {} });
      expect(await callOf('Delete   Collection posts!!')).toEqual({ name: 'deleteCollection', arguments: { name: 'posts' } });
      expect(await callOf('Add Field views To posts AS Number.')).toEqual({
        name: 'createField',
        arguments: { collection: 'posts', field: { name: 'views', type: 'number' } },
      });
      expect(await callOf('CREATE ITEM IN posts WITH {"Title":"A. B!"}!')).toEqual({
        name: 'createItem',
        arguments: { collection: 'posts', data: { Title: 'A. B!' } },
      });
    });

    it('keeps names, ids and JSON as typed', async () => {
      expect(await callOf('create collection Posts')).toEqual({ name: 'createCollection', arguments: { name: 'Posts' } });
      expect(await callOf('delete item AbC-123 from posts')).toEqual({
        name: 'deleteItem',
        arguments: { collection: 'posts', id: 'AbC-123' },
      });
      expect(await callOf('create item in posts with {"A b":"C D"}')).toEqual({
        name: 'createItem',
        arguments: { collection: 'posts', data: { 'A b': 'C D' } },
      });
    });

    it('takes the first colon after the collection for suggestions and assists', async () => {
      expect(await callOf('suggest field for posts:a: b')).toEqual({
        name: 'aiSuggestField',
        arguments: { collection: 'posts', description: 'a: b' },
      });
      expect(await callOf('assist body in posts : shorten it')).toEqual({
        name: 'aiContentAssist',
        arguments: { collection: 'posts', field: 'body', instruction: 'shorten it' },
      });
    });

    it('reads `search for …` as a query over the whole site, whatever words follow', async () => {
      expect(await callOf('Search For cats for dogs.')).toEqual({ name: 'searchItems', arguments: { query: 'cats for dogs' } });
      expect(await callOf('search Posts for Hello World')).toEqual({
        name: 'searchItems',
        arguments: { collection: 'Posts', query: 'Hello World' },
      });
    });

    it('reads only the current message, never the history', async () => {
      const history = [
        { role: 'user' as const, content: 'delete collection posts' },
        { role: 'assistant' as const, content: 'delete user admin' },
      ];
      expect((await plan('list collections', history)).toolCalls).toEqual([{ id: 'echo-0', name: 'listCollections', arguments: {} }]);
      expect((await plan('hello', history)).toolCalls).toEqual([]);
    });
  });

  describe('with invalid parts still makes the call, so the harness denies it with details', () => {
    it.each([
      ['create collection 9lives', ['name']],
      ['create collection Posts', ['name']],
      ['delete collection po$ts', ['name']],
      ['add field Title to posts', ['field.name']],
      ['add field title to posts as money', ['field.type']],
      ['add field state to posts as enum', ['field.options.values']],
      ['list items in My-Posts', ['collection']],
      ['create item in posts with [1,2,3]', ['data']],
      ['create item in posts with "text"', ['data']],
      ['create item in posts with 42', ['data']],
      ['create item in posts with null', ['data']],
      ['create item in posts with {not json}', ['data']],
      ['update item 1 in posts with ["a"]', ['data']],
      ['suggest field for posts:', ['description']],
      ['assist Body in posts: x', ['field']],
    ])('"%s" → denied at %j', async (message, paths) => {
      expect(validation(await callOf(message))).toEqual(paths);
    });

    it('passes the typed text along when the JSON does not parse', async () => {
      expect((await callOf('create item in posts with {title: x}')).arguments).toEqual({ collection: 'posts', data: '{title: x}' });
    });
  });

  describe('for a message that matches no phrase', () => {
    it.each([
      '',
      'hello',
      'list collection posts',
      'create collection',
      'create collection my posts',
      'add field a to b as',
      'delete posts',
      'please',
      'rename field body in posts',
    ])('"%s" answers with the list of phrases and no tool call', async (message) => {
      const output = await plan(message);
      expect(output.toolCalls).toEqual([]);
      for (const entry of ECHO_PHRASES) expect(output.text).toContain(entry.usage);
    });

    it('answers with no tool call when there is no user message at all', async () => {
      expect((await planner.plan({ messages: [], tools })).toolCalls).toEqual([]);
    });

    it('never throws, whatever the text', async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 300 }), async (message) => {
          const output = await plan(message);
          expect(output.toolCalls.length).toBeLessThanOrEqual(1);
          if (output.toolCalls.length === 0) expect(output.text).toBeTruthy();
          for (const call of output.toolCalls) expect(findSkill(call.name)).toBeDefined();
        }),
        { numRuns: 200 },
      );
    });
  });
});

describe('the echo planner asked for several things in one message', () => {
  it('proposes a collection and one field call per named field, in order (a plan)', async () => {
    const output = await plan('create a collection events with fields title and date as datetime');
    expect(output.toolCalls.map((call) => [call.id, call.name, call.arguments])).toEqual([
      ['echo-0', 'createCollection', { name: 'events' }],
      ['echo-1', 'createField', { collection: 'events', field: { name: 'title', type: 'string' } }],
      ['echo-2', 'createField', { collection: 'events', field: { name: 'date', type: 'datetime' } }],
    ]);
    for (const call of output.toolCalls) expect(validation(call)).toBe('valid');
  });

  it('proposes one call per clause joined by ";" or "and then", only when every clause is a phrase', async () => {
    const output = await plan('create collection talks; add field speaker to talks and then create item in talks with {"speaker": "Ada"}');
    expect(output.toolCalls.map((call) => call.name)).toEqual(['createCollection', 'createField', 'createItem']);
    expect((await plan('create collection talks; make me a sandwich')).toolCalls).toEqual([]);
    // One phrase stays one call, its JSON untouched by the clause breaks.
    expect((await callOf('create item in talks with {"speaker": "Ada; Bob"}')).arguments).toEqual({
      collection: 'talks',
      data: { speaker: 'Ada; Bob' },
    });
  });
});
