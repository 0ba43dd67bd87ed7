// The collection page (content/[collection]): the open collection's live state, the query and tab held in the URL, the
// item editor (and `?item=` links that open it), the chosen columns, and the dialogs the page opens.
import type { Field, ItemView } from '@lumibase/shared';
import { untrack } from 'svelte';
import { describeError, type ItemData, type SiteApi } from '../api/index.js';
import { formatCell, shortId } from '../format/values.js';
import { CollectionState } from './collection.svelte.js';
import { columnsKey, loadColumns, saveColumns } from './column-choice.js';
import { ItemHistoryState } from './item-history.svelte.js';
import { type ItemQuery, readItemQuery, writeItemQuery } from './item-query.js';
import { liveResource } from './live-resource.svelte.js';
import type { Address, StudioParts } from './page-context.js';

export type CollectionTab = 'items' | 'fields';

export interface CollectionPageOptions extends Address {
  studio: StudioParts;
  /** The collection's name (the route's param). */
  name: () => string;
  /** Where the column choice is remembered (localStorage in a browser). */
  storage?: Pick<Storage, 'getItem' | 'setItem'> | undefined;
}

export class CollectionPage {
  /** The item editor: open on an item, or on a new one (`{}`). */
  editor = $state<{ item?: ItemView } | undefined>();
  deletingItem = $state<ItemView>();
  /** TRASH_RETENTION_DAYS, read from the trash the first time a deletion (item, field, collection) is asked for (its prompt says it). */
  trashRetentionDays = $state<number>();
  /** `suggesting`: opened from "Suggest a field" (a description pre-fills the add-field form). */
  fieldEditor = $state<{ field?: Field; suggesting?: boolean } | undefined>();
  removingField = $state<Field>();
  deletingCollection = $state(false);

  readonly #options: CollectionPageOptions;
  /** A derived id, not the editor: a restore re-opens the same item with new data and keeps its history panel. */
  readonly #editedId: string | undefined = $derived(this.editor?.item?.id);
  #chosenColumns = $state<{ key: string; names: string[] }>();

  constructor(options: CollectionPageOptions) {
    this.#options = options;
    // The URL's query shows in the open collection.
    $effect(() => {
      const next = this.query;
      untrack(() => this.view?.setQuery(next));
    });
    // `?item=<id>` (a search result, a shared link) opens that item's editor once it is read.
    $effect(() => {
      const id = this.#itemParam;
      const content = this.#studio.content;
      const name = this.name;
      if (!id || !content || !name) return;
      untrack(() => void this.#openItem(content.api, name, id));
    });
    $effect(() => {
      const view = this.view;
      if (!view) return;
      return liveResource(this.#studio.live, {
        load: () => view.load(),
        resync: () => view.resync(),
        on: {
          'content-changed': (event) => {
            view.handle(event);
            // Someone else changed the open item: its history has a new revision.
            if (event.kind === 'item' && event.id !== undefined && event.id === this.#editedId) void this.history?.load({ silent: true });
          },
        },
      });
    });
  }

  get name(): string {
    return this.#options.name();
  }

  /** Opens the delete prompt for `item`; it says for how long the trash keeps it. */
  readonly askToDeleteItem = (item: ItemView): void => {
    this.deletingItem = item;
    this.#readRetention();
  };

  /** Opens the prompt to remove `field`; it says for how long the trash keeps the field and its values. */
  readonly askToRemoveField = (field: Field): void => {
    this.removingField = field;
    this.#readRetention();
  };

  /** Opens the prompt to delete the collection; it says for how long the trash keeps it with its items. */
  readonly askToDeleteCollection = (): void => {
    this.deletingCollection = true;
    this.#readRetention();
  };

  #readRetention(): void {
    const content = this.#studio.content;
    if (this.trashRetentionDays !== undefined || !content) return;
    content.api.trash
      .retentionDays()
      .then((days) => {
        this.trashRetentionDays = days;
      })
      // The prompt then says "until it expires" without the number.
      .catch(() => undefined);
  }

  /** Page, size, sort and filter live in the URL: reload and Back keep them. */
  readonly query: ItemQuery = $derived.by(() => readItemQuery(this.#options.url().searchParams));

  readonly view: CollectionState | undefined = $derived.by(() => {
    const content = this.#studio.content;
    const name = this.name;
    if (!content || !name) return undefined;
    return new CollectionState(content.api, name, {
      query: untrack(() => this.query),
      notify: (toast) => this.#studio.toasts.show(toast),
      onCollectionsChanged: () => void content.collections.load({ silent: true }),
      onpage: (next) => this.showQuery({ ...this.query, page: next }),
    });
  });

  get fields(): Field[] {
    return this.view?.schema.value?.fields ?? [];
  }

  get canWriteSchema(): boolean {
    return this.#studio.site.can('schema:write');
  }

  get canWriteContent(): boolean {
    return this.#studio.site.can('content:write');
  }

  /** The AI helpers only read the site. */
  get canAssist(): boolean {
    return this.#studio.site.can('content:read');
  }

  readonly tab: CollectionTab = $derived.by(() => (this.#options.url().searchParams.get('tab') === 'fields' ? 'fields' : 'items'));

  /** The open item's history: one per item opened, so a restore's result never lands in another item's panel. */
  readonly history: ItemHistoryState | undefined = $derived.by(() => {
    const id = this.#editedId;
    const api = this.view?.api;
    const collection = this.name;
    if (!id || !api) return undefined;
    return new ItemHistoryState({
      list: () => api.items.revisions(collection, id),
      restore: (revision) => api.items.restore({ collection, id, revision }),
      onrestored: (item) => {
        if (this.editor?.item?.id === item.id) this.editor = { item };
      },
    });
  });

  /** The columns shown: the column picker's choice, remembered per site and collection on this device. */
  get shownColumns(): string[] {
    const key = this.#columnsKey;
    const chosen = this.#chosenColumns;
    return chosen?.key === key ? chosen.names : loadColumns(this.#options.storage, key, this.fields);
  }

  readonly chooseColumns = (names: string[]): void => {
    const key = this.#columnsKey;
    this.#chosenColumns = { key, names };
    saveColumns(this.#options.storage, key, names);
  };

  readonly showQuery = (next: ItemQuery): void => {
    const url = new URL(this.#options.url());
    writeItemQuery(url.searchParams, next);
    void this.#options.goto(url, { noScroll: true, keepFocus: true });
  };

  readonly showTab = (next: CollectionTab): void => {
    const url = new URL(this.#options.url());
    if (next === 'items') url.searchParams.delete('tab');
    else url.searchParams.set('tab', next);
    void this.#options.goto(url, { replaceState: true, noScroll: true, keepFocus: true });
  };

  readonly closeEditor = (): void => {
    this.editor = undefined;
    this.#forgetItemParam();
  };

  /** How an item is named in a confirmation: its first field's value, else its short id. */
  itemTitle(item: ItemView): string {
    const first = this.fields[0];
    return first ? formatCell(first, item.data[first.name]) : shortId(item.id);
  }

  readonly saveItem = async (data: ItemData): Promise<void> => {
    const view = this.view;
    if (!view) return;
    const item = this.editor?.item;
    await (item ? view.updateItem(item.id, data) : view.createItem(data));
    this.closeEditor();
  };

  /** aiSuggestField in this collection: a suggestion for the add-field form, nothing created. */
  readonly suggestField = (description: string) => {
    return this.#siteApi().ai.suggestField(this.name, description);
  };

  /** aiContentAssist for one field of the item being edited (or a new one): a value for the form, nothing saved. */
  readonly assist = (field: string, instruction: string) => {
    return this.#siteApi().ai.assist({ collection: this.name, field, instruction, itemId: this.editor?.item?.id });
  };

  readonly deleteCollection = async (): Promise<void> => {
    await this.view?.deleteCollection();
    void this.#options.goto('/content');
  };

  get #studio(): StudioParts {
    return this.#options.studio;
  }

  get #itemParam(): string | null {
    return this.#options.url().searchParams.get('item');
  }

  get #columnsKey(): string {
    return columnsKey(this.#studio.site.current?.id ?? '', this.name);
  }

  async #openItem(api: SiteApi, collection: string, id: string): Promise<void> {
    try {
      const item = await api.items.get(collection, id);
      if (this.#itemParam === id && this.name === collection) this.editor = { item };
    } catch (error) {
      this.#studio.toasts.show({ tone: 'danger', title: 'Could not open the item', message: describeError(error) });
      this.#forgetItemParam();
    }
  }

  #forgetItemParam(): void {
    if (!this.#options.url().searchParams.has('item')) return;
    const url = new URL(this.#options.url());
    url.searchParams.delete('item');
    void this.#options.goto(url, { replaceState: true, noScroll: true, keepFocus: true });
  }

  #siteApi(): SiteApi {
    const content = this.#studio.content;
    if (!content) throw new Error('No site is chosen');
    return content.api;
  }
}
