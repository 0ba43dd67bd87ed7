import type { CollectionView, ItemView } from '@lumibase/shared';
import { flushSync } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SiteApi } from '../api/index.js';
import { ApiError } from '../api/index.js';
import { fakeSocketFactory } from '../realtime/fake-socket.js';
import { CollectionPage } from './collection-page.svelte.js';
import { ContentState } from './content.svelte.js';
import { LiveState } from './live.svelte.js';
import { ToastState } from './toasts.svelte.js';

const item = (id: string, title = id): ItemView => ({
  id,
  collection: 'posts',
  data: { title },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const posts: CollectionView = { name: 'posts', fields: [{ name: 'title', type: 'string', required: false }] };
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function fakeApi(state: { items: ItemView[]; gate?: Promise<unknown> }) {
  const api = {
    siteId: 's1',
    collections: {
      list: vi.fn(async () => [posts]),
      get: vi.fn(async () => {
        await state.gate;
        return posts;
      }),
    },
    items: {
      list: vi.fn(async (_name: string, { limit, offset }: { limit: number; offset: number }) => ({
        data: state.items.slice(offset, offset + limit),
        meta: { total: state.items.length, limit, offset },
      })),
      get: vi.fn(async (_name: string, id: string) => {
        const found = state.items.find((candidate) => candidate.id === id);
        if (!found) throw new ApiError({ status: 404, code: 'NOT_FOUND', message: 'Item not found' });
        return found;
      }),
      revisions: vi.fn(async () => []),
    },
  };
  return api as unknown as SiteApi & typeof api;
}

let stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops) stop();
  stops = [];
});

/** A collection page on `address`, inside an effect root (as a component would hold it), with a live socket. */
async function open(address: string, items: ItemView[] = [item('a')], gate?: Promise<unknown>) {
  const state = { items, gate };
  const api = fakeApi(state);
  const { createSocket, sockets } = fakeSocketFactory();
  const live = new LiveState({ createSocket });
  await live.connect('s1', 0);
  const toasts = new ToastState();
  const storage = new Map<string, string>();
  let url = $state(new URL(address, 'http://studio.test'));
  const goto = vi.fn((next: URL | string) => {
    url = new URL(next, 'http://studio.test');
  });
  let here!: CollectionPage;
  stops.push(
    $effect.root(() => {
      here = new CollectionPage({
        studio: { content: new ContentState(api), live, toasts, site: { current: { id: 's1' }, can: () => true } },
        name: () => 'posts',
        url: () => url,
        goto,
        storage: { getItem: (key) => storage.get(key) ?? null, setItem: (key, value) => storage.set(key, value) },
      });
    }),
  );
  flushSync();
  return { here, api, state, socket: sockets[0]!, toasts, goto, storage, url: () => url };
}

describe('CollectionPage', () => {
  it('loads the collection and its items: loading, then loaded', async () => {
    let answer!: () => void;
    const { here } = await open('/content/posts', [item('a')], new Promise<void>((resolve) => (answer = resolve)));
    await flush();
    expect(here.view?.schema.status).toBe('loading');
    answer();
    await flush();
    expect(here.view?.schema.status).toBe('ready');
    expect(here.fields.map((field) => field.name)).toEqual(['title']);
    expect(here.view?.items.value?.data.map((row) => row.id)).toEqual(['a']);
  });

  it('shows an item created elsewhere, and reads everything again on a resync', async () => {
    const { here, api, state, socket } = await open('/content/posts');
    await flush();
    state.items = [item('a'), item('b')];
    socket.serverEmit('content-changed', { seq: 1, siteId: 's1', kind: 'item', action: 'created', collection: 'posts', id: 'b' });
    await flush();
    expect(here.view?.items.value?.data.map((row) => row.id)).toEqual(['a', 'b']);
    expect(here.view?.arrivedIds).toEqual(['b']);

    state.items = [item('a'), item('b'), item('c')];
    const schemaReads = api.collections.get.mock.calls.length;
    socket.serverEmit('resync-required', { siteId: 's1', seq: 10 });
    await flush();
    expect(api.collections.get.mock.calls.length).toBe(schemaReads + 1);
    expect(here.view?.items.value?.data.map((row) => row.id)).toEqual(['a', 'b', 'c']);
  });

  it('follows the URL: its page, size and tab', async () => {
    const { here, api, goto, url } = await open(
      '/content/posts?size=10',
      Array.from({ length: 25 }, (_, index) => item(`i${index}`)),
    );
    await flush();
    here.showQuery({ ...here.query, page: 2 });
    expect(url().searchParams.get('page')).toBe('2');
    flushSync();
    await flush();
    expect(api.items.list).toHaveBeenLastCalledWith('posts', { limit: 10, offset: 10 });
    expect(here.view?.items.value?.data[0]?.id).toBe('i10');
    here.showTab('fields');
    expect(goto).toHaveBeenLastCalledWith(expect.any(URL), { replaceState: true, noScroll: true, keepFocus: true });
    expect(here.tab).toBe('fields');
  });

  it('opens the item a link names, and forgets the link when the editor closes', async () => {
    const { here, url } = await open('/content/posts?item=a');
    await flush();
    expect(here.editor?.item?.id).toBe('a');
    expect(here.history).toBeDefined();
    here.closeEditor();
    expect(here.editor).toBeUndefined();
    expect(url().searchParams.has('item')).toBe(false);
  });

  it("keeps the open item's history when the item is shown again with restored data", async () => {
    const { here } = await open('/content/posts?item=a');
    await flush();
    const history = here.history;
    expect(history).toBeDefined();
    here.editor = { item: item('a', 'restored title') };
    expect(here.history).toBe(history);
    here.editor = { item: item('b') };
    expect(here.history).not.toBe(history);
  });

  it('says so when a linked item cannot be read, and drops the link', async () => {
    const { here, toasts, url } = await open('/content/posts?item=gone');
    await flush();
    expect(here.editor).toBeUndefined();
    expect(toasts.list.map((toast) => toast.title)).toEqual(['Could not open the item']);
    expect(url().searchParams.has('item')).toBe(false);
  });

  it('remembers the chosen columns for this site and collection', async () => {
    const { here, storage } = await open('/content/posts');
    await flush();
    expect(here.shownColumns).toEqual(['title']);
    here.chooseColumns([]);
    expect(here.shownColumns).toEqual([]);
    expect([...storage.keys()]).toHaveLength(1);
  });
});
