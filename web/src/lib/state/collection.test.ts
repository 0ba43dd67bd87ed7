import type { CollectionView, ItemView } from '@lumibase/shared';
import { describe, expect, it, vi } from 'vitest';
import type { SiteApi } from '../api/index.js';
import type { ContentChangedEvent } from '../realtime/events.js';
import { CollectionState } from './collection.svelte.js';
import { ContentState } from './content.svelte.js';

const item = (id: string): ItemView => ({
  id,
  collection: 'posts',
  data: { title: id },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const event = (extra: Partial<ContentChangedEvent>): ContentChangedEvent => ({
  seq: 1,
  siteId: 's1',
  kind: 'item',
  action: 'created',
  collection: 'posts',
  ...extra,
});
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function fakeApi(state: { collections: CollectionView[]; items: ItemView[] }) {
  const api = {
    siteId: 's1',
    collections: {
      list: vi.fn(async () => state.collections),
      get: vi.fn(async (name: string) => state.collections.find((collection) => collection.name === name)!),
      addField: vi.fn(async () => undefined),
      removeField: vi.fn(async () => undefined),
      remove: vi.fn(async () => undefined),
    },
    items: {
      list: vi.fn(async (_name: string, { limit, offset }: { limit: number; offset: number }) => ({
        data: state.items.slice(offset, offset + limit),
        meta: { total: state.items.length, limit, offset },
      })),
      create: vi.fn(async (_name: string, data: Record<string, unknown>) => {
        const created = { ...item(`i${state.items.length}`), data };
        state.items = [...state.items, created];
        return created;
      }),
    },
  };
  return api as unknown as SiteApi & typeof api;
}

describe('CollectionState', () => {
  it('shows an item created elsewhere: refetches the page and highlights it', async () => {
    const state = {
      collections: [{ name: 'posts', fields: [{ name: 'title', type: 'string' as const, required: false }] }],
      items: [item('a')],
    };
    const api = fakeApi(state);
    const view = new CollectionState(api, 'posts');
    view.load();
    await flush();
    expect(view.items.value?.data.map((row) => row.id)).toEqual(['a']);

    state.items = [item('a'), item('b')];
    view.handle(event({ kind: 'item', action: 'created', id: 'b' }));
    expect(view.arrivedIds).toEqual(['b']);
    await flush();
    expect(view.items.value?.data.map((row) => row.id)).toEqual(['a', 'b']);
    expect(view.items.status).toBe('ready');
  });

  it("ignores other collections' events", async () => {
    const api = fakeApi({ collections: [{ name: 'posts', fields: [] }], items: [] });
    const view = new CollectionState(api, 'posts');
    view.load();
    await flush();
    view.handle(event({ collection: 'pages', id: 'x' }));
    expect(api.items.list).toHaveBeenCalledTimes(1);
  });

  it('refreshes the schema and items when a field changes, and notices its own deletion', async () => {
    const state = { collections: [{ name: 'posts', fields: [] as CollectionView['fields'] }], items: [item('a')] };
    const api = fakeApi(state);
    const view = new CollectionState(api, 'posts');
    view.load();
    await flush();
    state.collections = [{ name: 'posts', fields: [{ name: 'body', type: 'text', required: false }] }];
    view.handle(event({ kind: 'field', action: 'created', field: 'body' }));
    await flush();
    expect(view.schema.value?.fields.map((field) => field.name)).toEqual(['body']);

    view.handle(event({ kind: 'collection', action: 'deleted' }));
    expect(view.deleted).toBe(true);
  });

  it('moves back a page when its last item goes', async () => {
    const state = { collections: [{ name: 'posts', fields: [] }], items: [item('a'), item('b'), item('c')] };
    const api = fakeApi(state);
    const view = new CollectionState(api, 'posts', { limit: 2 });
    view.load();
    await flush();
    view.goTo(2);
    await flush();
    expect(view.items.value?.data.map((row) => row.id)).toEqual(['c']);
    state.items = [item('a'), item('b')];
    view.handle(event({ action: 'deleted', id: 'c' }));
    await flush();
    await flush();
    expect(view.offset).toBe(0);
    expect(view.items.value?.data.map((row) => row.id)).toEqual(['a', 'b']);
  });
});

describe('CollectionState writes', () => {
  it('creates an item, announces it and shows it in the page', async () => {
    const state = { collections: [{ name: 'posts', fields: [] }], items: [] as ItemView[] };
    const api = fakeApi(state);
    const notify = vi.fn();
    const view = new CollectionState(api, 'posts', { notify });
    view.load();
    await flush();
    await view.createItem({ title: 'Hello' });
    expect(api.items.create).toHaveBeenCalledWith('posts', { title: 'Hello' });
    expect(notify).toHaveBeenCalledWith({ tone: 'success', title: 'Item created' });
    expect(view.items.value?.data.map((row) => row.data.title)).toEqual(['Hello']);
  });

  it('tells the site its collection list is stale when a field is added or removed, or the collection deleted', async () => {
    const api = fakeApi({ collections: [{ name: 'posts', fields: [] }], items: [] });
    const onCollectionsChanged = vi.fn();
    const notify = vi.fn();
    const view = new CollectionState(api, 'posts', { notify, onCollectionsChanged });
    await view.addField({ name: 'body', type: 'text', required: false });
    await view.removeField('body');
    await view.deleteCollection();
    expect(api.collections.remove).toHaveBeenCalledWith('posts');
    expect(onCollectionsChanged).toHaveBeenCalledTimes(3);
    expect(notify.mock.calls.map(([toast]) => toast.title)).toEqual(['Field body added', 'Field body removed', 'Collection posts deleted']);
  });
});

describe('ContentState', () => {
  it('drops a deleted collection at once and confirms with a refetch', async () => {
    const state = {
      collections: [
        { name: 'posts', fields: [] },
        { name: 'pages', fields: [] },
      ] as CollectionView[],
      items: [],
    };
    const api = fakeApi(state);
    const content = new ContentState(api);
    content.ensureLoaded();
    await flush();
    state.collections = [{ name: 'pages', fields: [] }];
    content.handle(event({ kind: 'collection', action: 'deleted', collection: 'posts' }));
    expect(content.collections.value?.map((collection) => collection.name)).toEqual(['pages']);
    await flush();
    expect(api.collections.list).toHaveBeenCalledTimes(2);

    state.collections = [
      { name: 'pages', fields: [] },
      { name: 'authors', fields: [] },
    ];
    content.handle(event({ kind: 'collection', action: 'created', collection: 'authors' }));
    await flush();
    expect(content.collections.value?.map((collection) => collection.name)).toEqual(['pages', 'authors']);
    content.handle(event({ kind: 'item', collection: 'pages' }));
    expect(api.collections.list).toHaveBeenCalledTimes(3);
  });
});
