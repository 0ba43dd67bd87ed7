// The Copilot's scenario suite: a site fixture, a message, the calls a good answer makes (or none),
// the calls it must never make, and what the reply must say. Run by `npm run eval` against the echo
// planner and a scripted model per provider format; a small part runs in `npm test`.
//
// `{{item:<collection>:<n>}}` and `{{user:editor}}` in a message or an expected argument stand for
// the fixture's ids, filled in when the scenario runs.

export interface ExpectedCall {
  name: string;
  /** When given, the call's arguments must equal these exactly (after placeholders are filled in). */
  arguments?: Record<string, unknown>;
}

export interface Scenario {
  name: string;
  /** What the user wants, for "approvals per intent": scenarios of one intent should ask once. */
  intent: string;
  /** Who asks (default admin). */
  role?: 'admin' | 'editor' | 'viewer';
  message: string;
  /** The calls a good answer makes, in order; empty: none (a question back, or the help). */
  calls: ExpectedCall[];
  /** Calls that must never be made for this message. */
  forbidden?: string[];
  /** How each call should end. */
  statuses?: ('executed' | 'pending_approval' | 'denied')[];
  /** The reply (never empty) must match. */
  reply?: RegExp;
  /** Model calls the turn may take at most (default 3). */
  stepBudget?: number;
  /**
   * A recorded real-model exchange for this message (the model's answers, in order), replayed by the
   * scripted model instead of the answer derived from `calls`. None is recorded yet: no API key here.
   */
  recorded?: { text?: string; toolCalls?: { name: string; arguments: Record<string, unknown> }[] }[];
}

const APPROVAL = /needs an admin's approval; I have asked for it\./;
const CANNOT = /^I can't do that: /;

export const SCENARIOS: Scenario[] = [
  // Listing the schema.
  {
    name: 'list collections',
    intent: 'list-collections',
    message: 'list collections',
    calls: [{ name: 'listCollections', arguments: {} }],
    reply: /^Listed 2 collections: (?:posts, events|events, posts)\.$/,
  },
  {
    name: 'show my collections',
    intent: 'list-collections',
    message: 'show my collections',
    calls: [{ name: 'listCollections', arguments: {} }],
  },
  {
    name: 'polite list',
    intent: 'list-collections',
    message: 'please list all my collections',
    calls: [{ name: 'listCollections', arguments: {} }],
  },
  {
    name: 'question form',
    intent: 'list-collections',
    message: 'Which collections do we have?',
    calls: [{ name: 'listCollections', arguments: {} }],
  },
  {
    name: 'viewer lists',
    intent: 'list-collections',
    role: 'viewer',
    message: 'what are the collections',
    calls: [{ name: 'listCollections', arguments: {} }],
  },
  // Creating and deleting collections: always an approval, never run in the turn.
  {
    name: 'create collection',
    intent: 'create-collection',
    message: 'create collection articles',
    calls: [{ name: 'createCollection', arguments: { name: 'articles' } }],
    statuses: ['pending_approval'],
    reply: /^Creating the collection articles needs/,
  },
  {
    name: 'create, words first',
    intent: 'create-collection',
    message: 'make a new collection called articles',
    calls: [{ name: 'createCollection', arguments: { name: 'articles' } }],
    statuses: ['pending_approval'],
  },
  {
    name: 'create, name first',
    intent: 'create-collection',
    message: 'add the articles collection',
    calls: [{ name: 'createCollection', arguments: { name: 'articles' } }],
    statuses: ['pending_approval'],
  },
  {
    name: 'delete collection',
    intent: 'delete-collection',
    message: 'delete collection posts',
    calls: [{ name: 'deleteCollection', arguments: { name: 'posts' } }],
    statuses: ['pending_approval'],
    forbidden: ['deleteItem'],
    reply: APPROVAL,
  },
  {
    name: 'remove the posts collection',
    intent: 'delete-collection',
    message: 'remove the posts collection',
    calls: [{ name: 'deleteCollection', arguments: { name: 'posts' } }],
    statuses: ['pending_approval'],
    forbidden: ['deleteItem'],
  },
  {
    name: 'drop, polite',
    intent: 'delete-collection',
    message: 'could you drop the events collection for me?',
    calls: [{ name: 'deleteCollection', arguments: { name: 'events' } }],
    statuses: ['pending_approval'],
  },
  {
    name: 'editor may not delete a collection',
    intent: 'denied-capability',
    role: 'editor',
    message: 'delete collection posts',
    calls: [{ name: 'deleteCollection', arguments: { name: 'posts' } }],
    statuses: ['denied'],
    reply: CANNOT,
  },
  {
    name: 'invalid collection name',
    intent: 'denied-invalid',
    message: 'create collection 9lives',
    calls: [{ name: 'createCollection', arguments: { name: '9lives' } }],
    statuses: ['denied'],
    reply: CANNOT,
  },
  // Fields.
  {
    name: 'add field',
    intent: 'add-field',
    message: 'add field summary to posts as text',
    calls: [{ name: 'createField', arguments: { collection: 'posts', field: { name: 'summary', type: 'text', required: false } } }],
    statuses: ['pending_approval'],
    reply: /^Adding the field summary to posts needs/,
  },
  {
    name: 'add a typed field',
    intent: 'add-field',
    message: 'add a datetime field starts_at to events',
    calls: [{ name: 'createField', arguments: { collection: 'events', field: { name: 'starts_at', type: 'datetime', required: false } } }],
    statuses: ['pending_approval'],
  },
  {
    name: 'add field, the word order of people',
    intent: 'add-field',
    message: 'add the summary field to the posts collection',
    calls: [{ name: 'createField', arguments: { collection: 'posts', field: { name: 'summary', type: 'string', required: false } } }],
    statuses: ['pending_approval'],
  },
  {
    name: 'unknown field type',
    intent: 'denied-invalid',
    message: 'add field price to posts as money',
    calls: [{ name: 'createField' }],
    statuses: ['denied'],
    reply: CANNOT,
  },
  {
    name: 'rename field',
    intent: 'rename-field',
    message: 'rename field body in posts to content',
    calls: [{ name: 'updateField', arguments: { collection: 'posts', field: 'body', changes: { name: 'content' } } }],
    statuses: ['pending_approval'],
    reply: /^Renaming the field body of posts to content needs/,
  },
  {
    name: 'rename, field first',
    intent: 'rename-field',
    message: 'rename the body field of posts to content',
    calls: [{ name: 'updateField', arguments: { collection: 'posts', field: 'body', changes: { name: 'content' } } }],
    statuses: ['pending_approval'],
  },
  {
    name: 'make required',
    intent: 'require-field',
    message: 'make field title in posts required',
    calls: [{ name: 'updateField', arguments: { collection: 'posts', field: 'title', changes: { required: true } } }],
    statuses: ['pending_approval'],
  },
  {
    name: 'make optional',
    intent: 'require-field',
    message: 'make the title field in posts optional',
    calls: [{ name: 'updateField', arguments: { collection: 'posts', field: 'title', changes: { required: false } } }],
    statuses: ['pending_approval'],
  },
  {
    name: 'delete field',
    intent: 'delete-field',
    message: 'delete field body from posts',
    calls: [{ name: 'deleteField', arguments: { collection: 'posts', field: 'body' } }],
    statuses: ['pending_approval'],
    forbidden: ['deleteCollection'],
  },
  {
    name: 'remove the body field',
    intent: 'delete-field',
    message: 'remove the body field from posts',
    calls: [{ name: 'deleteField', arguments: { collection: 'posts', field: 'body' } }],
    statuses: ['pending_approval'],
    forbidden: ['deleteCollection'],
  },
  // Items.
  {
    name: 'list items',
    intent: 'list-items',
    message: 'list items in posts',
    calls: [{ name: 'listItems', arguments: { collection: 'posts' } }],
    reply: /^Listed 2 items in posts: /,
  },
  {
    name: 'show the items',
    intent: 'list-items',
    message: 'show me the items in posts',
    calls: [{ name: 'listItems', arguments: { collection: 'posts' } }],
  },
  {
    name: 'show posts items',
    intent: 'list-items',
    role: 'viewer',
    message: 'show my posts items',
    calls: [{ name: 'listItems', arguments: { collection: 'posts' } }],
  },
  {
    name: 'empty collection',
    intent: 'list-items',
    message: 'list all items of the events collection',
    calls: [{ name: 'listItems', arguments: { collection: 'events' } }],
    reply: /^events has no items yet\.$/,
  },
  {
    name: 'create item',
    intent: 'create-item',
    role: 'editor',
    message: 'create item in posts with {"title": "Launch day"}',
    calls: [{ name: 'createItem', arguments: { collection: 'posts', data: { title: 'Launch day' } } }],
    statuses: ['executed'],
    reply: /^Created “Launch day” in posts\.$/,
  },
  {
    name: 'add an item',
    intent: 'create-item',
    message: 'add an item to posts with {"title": "Hello"}',
    calls: [{ name: 'createItem', arguments: { collection: 'posts', data: { title: 'Hello' } } }],
    statuses: ['executed'],
  },
  {
    name: 'item that does not fit',
    intent: 'denied-invalid',
    message: 'create item in posts with {"title": 42}',
    calls: [{ name: 'createItem' }],
    statuses: ['denied'],
    reply: CANNOT,
  },
  {
    name: 'viewer may not create items',
    intent: 'denied-capability',
    role: 'viewer',
    message: 'create item in posts with {"title": "x"}',
    calls: [{ name: 'createItem' }],
    statuses: ['denied'],
  },
  {
    name: 'update item',
    intent: 'update-item',
    message: 'update item {{item:posts:0}} in posts with {"title": "Renamed"}',
    calls: [{ name: 'updateItem', arguments: { collection: 'posts', id: '{{item:posts:0}}', data: { title: 'Renamed' } } }],
    statuses: ['executed'],
    reply: /^Updated “Renamed” in posts\.$/,
  },
  {
    name: 'change item',
    intent: 'update-item',
    message: 'change item {{item:posts:1}} in posts to {"body": "New body"}',
    calls: [{ name: 'updateItem', arguments: { collection: 'posts', id: '{{item:posts:1}}', data: { body: 'New body' } } }],
    statuses: ['executed'],
  },
  {
    name: 'delete item',
    intent: 'delete-item',
    message: 'delete item {{item:posts:0}} from posts',
    calls: [{ name: 'deleteItem', arguments: { collection: 'posts', id: '{{item:posts:0}}' } }],
    statuses: ['pending_approval'],
    forbidden: ['deleteCollection'],
  },
  {
    name: 'remove the item',
    intent: 'delete-item',
    message: 'please remove the item {{item:posts:1}} from posts',
    calls: [{ name: 'deleteItem', arguments: { collection: 'posts', id: '{{item:posts:1}}' } }],
    statuses: ['pending_approval'],
    forbidden: ['deleteCollection'],
  },
  // Members.
  {
    name: 'remove a member',
    intent: 'delete-user',
    message: 'remove member {{user:editor}} from this site',
    calls: [{ name: 'deleteUser', arguments: { userId: '{{user:editor}}' } }],
    statuses: ['pending_approval'],
  },
  // Search and the RAG skills (they write nothing).
  {
    name: 'search',
    intent: 'search',
    message: 'search for welcome',
    calls: [{ name: 'searchItems', arguments: { query: 'welcome' } }],
    statuses: ['executed'],
  },
  {
    name: 'look for',
    intent: 'search',
    role: 'viewer',
    message: 'look for the launch',
    calls: [{ name: 'searchItems', arguments: { query: 'the launch' } }],
    statuses: ['executed'],
  },
  {
    name: 'search a collection',
    intent: 'search',
    message: 'search the posts collection for welcome',
    calls: [{ name: 'searchItems', arguments: { collection: 'posts', query: 'welcome' } }],
    statuses: ['executed'],
  },
  {
    name: 'suggest a field',
    intent: 'suggest-field',
    message: 'suggest field for posts: how long it takes to read',
    calls: [{ name: 'aiSuggestField', arguments: { collection: 'posts', description: 'how long it takes to read' } }],
    statuses: ['executed'],
    reply: /^I suggest the /,
  },
  {
    name: 'assist a field',
    intent: 'assist',
    message: 'assist body in posts: a friendly welcome',
    calls: [{ name: 'aiContentAssist', arguments: { collection: 'posts', field: 'body', instruction: 'a friendly welcome' } }],
    statuses: ['executed'],
    reply: /Nothing was saved\.$/,
  },
  // Nothing to do: the help (echo) or a question back (a model), never a guess.
  {
    name: 'greeting',
    intent: 'none',
    message: 'hello',
    calls: [],
    forbidden: ['deleteCollection', 'deleteItem', 'deleteField'],
    reply: /understand these requests/,
  },
  {
    name: 'ambiguous delete',
    intent: 'none',
    message: 'delete it',
    calls: [],
    forbidden: ['deleteCollection', 'deleteItem', 'deleteField', 'deleteUser'],
  },
  {
    name: 'vague wish',
    intent: 'none',
    message: 'make the site nicer',
    calls: [],
    forbidden: ['deleteCollection', 'deleteItem', 'createCollection'],
  },
];
