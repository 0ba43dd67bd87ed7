// The echo planner as people type: filler, articles, the usual verbs and both word orders (docs/API.md,
// "The echo planner's phrases"), and a plain sentence for every outcome.
import { getSkillToolSpecs } from '@lumibase/shared';
import { describe, expect, it } from 'vitest';
import { EchoPlanner } from './echo-planner.js';
import { echoHelpText, ECHO_PHRASES, matchEchoPhrase } from './echo-phrases.js';
import { echoReplySentence } from './echo-reply.js';
import type { PlannerMessage } from './planner.js';

const tools = getSkillToolSpecs();

describe('the echo planner understands requests as people type them', () => {
  const variants: [string, string, Record<string, unknown>][] = [
    ['show my collections', 'listCollections', {}],
    ['please list all my collections', 'listCollections', {}],
    ['Can you show me all of the collections?', 'listCollections', {}],
    ['what are my collections', 'listCollections', {}],
    ['which collections do I have?', 'listCollections', {}],
    ['list collection', 'listCollections', {}],
    ['create a new collection called events', 'createCollection', { name: 'events' }],
    ['make the events collection', 'createCollection', { name: 'events' }],
    ['I want to add a collection named events, please', 'createCollection', { name: 'events' }],
    ['remove the posts collection', 'deleteCollection', { name: 'posts' }],
    ['drop collection posts!', 'deleteCollection', { name: 'posts' }],
    ['could you delete my posts collection for me', 'deleteCollection', { name: 'posts' }],
    [
      'add a field summary to the posts collection as text',
      'createField',
      { collection: 'posts', field: { name: 'summary', type: 'text' } },
    ],
    ['add the summary field to posts', 'createField', { collection: 'posts', field: { name: 'summary', type: 'string' } }],
    ['add a datetime field starts_at to events', 'createField', { collection: 'events', field: { name: 'starts_at', type: 'datetime' } }],
    ['new field views in posts as an integer', 'createField', { collection: 'posts', field: { name: 'views', type: 'integer' } }],
    ['remove the teaser field from posts', 'deleteField', { collection: 'posts', field: 'teaser' }],
    ['drop field teaser from the posts collection', 'deleteField', { collection: 'posts', field: 'teaser' }],
    [
      'rename field teaser in posts to standfirst',
      'updateField',
      { collection: 'posts', field: 'teaser', changes: { name: 'standfirst' } },
    ],
    [
      'rename the teaser field of posts to standfirst',
      'updateField',
      { collection: 'posts', field: 'teaser', changes: { name: 'standfirst' } },
    ],
    ['make field title in posts required', 'updateField', { collection: 'posts', field: 'title', changes: { required: true } }],
    ['make the title field in posts optional', 'updateField', { collection: 'posts', field: 'title', changes: { required: false } }],
    ['show me the items in posts', 'listItems', { collection: 'posts' }],
    ['list all items of the posts collection', 'listItems', { collection: 'posts' }],
    ['show my posts items', 'listItems', { collection: 'posts' }],
    ['add an item to posts with {"title":"Hi"}', 'createItem', { collection: 'posts', data: { title: 'Hi' } }],
    ['create a posts item with {"title":"Hi"}', 'createItem', { collection: 'posts', data: { title: 'Hi' } }],
    ['change item a1 in posts to {"title":"Hey"}', 'updateItem', { collection: 'posts', id: 'a1', data: { title: 'Hey' } }],
    ['remove the item a1 from posts', 'deleteItem', { collection: 'posts', id: 'a1' }],
    ['please remove member u_42 from this site', 'deleteUser', { userId: 'u_42' }],
    ['look for chocolate cake', 'searchItems', { query: 'chocolate cake' }],
    ['search the recipes collection for cake', 'searchItems', { collection: 'recipes', query: 'cake' }],
    ['suggest a new field for recipes: cooking time', 'aiSuggestField', { collection: 'recipes', description: 'cooking time' }],
  ];

  it.each(variants)('"%s" → %s', (message, name, args) => {
    expect(matchEchoPhrase(message)).toEqual({ name, arguments: args });
  });

  it('keeps the JSON of an item as typed, filler words inside it included', () => {
    expect(matchEchoPhrase('please create item in posts with {"title": "please, the end"}')).toEqual({
      name: 'createItem',
      arguments: { collection: 'posts', data: { title: 'please, the end' } },
    });
  });

  it('offers one example per phrase, with the site’s own collection', () => {
    const help = echoHelpText(['recipes', 'chefs']);
    expect(help).toMatch(/No AI model is connected \(set LLM_PROVIDER/);
    for (const entry of ECHO_PHRASES) expect(help).toContain(entry.usage);
    expect(help).toContain('“delete collection recipes”');
    expect(help).not.toContain('posts');
    for (const entry of ECHO_PHRASES) {
      const example = entry.example('recipes');
      if (!example.includes('<')) expect(matchEchoPhrase(example), example).toBeDefined();
    }
  });
});

describe('the echo planner’s replies', () => {
  const planner = new EchoPlanner();

  /** One turn as the chat service runs it: the call, its result as a tool message, the reply. */
  async function turn(message: string, result: Record<string, unknown>): Promise<string> {
    const messages: PlannerMessage[] = [{ role: 'user', content: message }];
    const first = await planner.plan({ messages, tools });
    const call = first.toolCalls[0]!;
    messages.push({ role: 'assistant', content: '', toolCalls: [call] });
    messages.push({ role: 'tool', content: JSON.stringify({ tool: call.name, ...result }), toolCallId: call.id!, toolName: call.name });
    const second = await planner.plan({ messages, tools });
    expect(second.toolCalls).toEqual([]);
    return second.text ?? '';
  }

  it.each([
    [
      'list collections',
      { status: 'executed', data: { collections: [{ name: 'posts' }, { name: 'events' }] } },
      'Listed 2 collections: posts, events.',
    ],
    ['list collections', { status: 'executed', data: { collections: [] } }, 'There are no collections yet.'],
    [
      'delete collection posts',
      { status: 'pending_approval', approvalId: 'a1' },
      "Deleting the collection posts needs an admin's approval; I have asked for it.",
    ],
    [
      'rename field teaser in posts to standfirst',
      { status: 'pending_approval', approvalId: 'a1' },
      "Renaming the field teaser of posts to standfirst needs an admin's approval; I have asked for it.",
    ],
    [
      'delete collection posts',
      { status: 'denied', message: 'deleteCollection is turned off for this site' },
      "I can't do that: deleteCollection is turned off for this site.",
    ],
    [
      'list items in posts',
      {
        status: 'executed',
        data: {
          collection: 'posts',
          items: [
            { id: 'i1', data: { title: 'Hello' } },
            { id: 'i2', data: {} },
          ],
          total: 7,
        },
      },
      'Listed 2 of 7 items in posts: “Hello”, item i2.',
    ],
    ['list items in posts', { status: 'executed', data: { collection: 'posts', items: [], total: 0 } }, 'posts has no items yet.'],
    [
      'create item in posts with {"title":"Hi"}',
      { status: 'executed', data: { id: 'i9', collection: 'posts', data: { title: 'Hi' } } },
      'Created “Hi” in posts.',
    ],
    ['search for qqqxxyz', { status: 'executed', data: { query: 'qqqxxyz', items: [] } }, 'Nothing in the site matched “qqqxxyz”.'],
    [
      'create collection 9lives',
      {
        status: 'denied',
        message: 'Invalid arguments for createCollection',
        details: [{ path: 'name', message: 'must match ^[a-z][a-z0-9_]{0,63}$' }],
      },
      "I can't do that: Invalid arguments for createCollection (name: must match ^[a-z][a-z0-9_]{0,63}$).",
    ],
  ])('"%s" with %j → %s', async (message, result, sentence) => {
    expect(await turn(message, result)).toBe(sentence);
  });

  it('never answers an empty sentence, whatever the result', () => {
    for (const status of ['executed', 'pending_approval', 'denied', 'planned', undefined])
      for (const tool of ['listCollections', 'deleteItem', 'unknownSkill', undefined])
        expect(echoReplySentence({ status, tool }, {}).trim()).not.toBe('');
  });
});
