// One item's history in the item panel: its revisions (newest first), the one selected for comparison, and restoring
// one (a restore makes a new revision, so the list is read again and the restored item handed back).
import type { ItemRevisionView, ItemView } from '@lumibase/shared';
import { type ApiError, toApiError } from '../api/index.js';
import { Resource } from './resource.svelte.js';

export type RestoredItem = ItemView & { revision: number };

export interface ItemHistoryOptions {
  list: () => Promise<ItemRevisionView[]>;
  restore: (revision: number) => Promise<RestoredItem>;
  /** The restored item, to show in the form and the table. */
  onrestored?: (item: RestoredItem) => void;
}

export class ItemHistoryState {
  readonly revisions: Resource<ItemRevisionView[]>;
  /** The revision compared with the current data. */
  selected = $state<number | undefined>(undefined);
  /** The revision being restored right now. */
  restoring = $state<number | undefined>(undefined);
  /** The last restore: done (with the revision it made) or refused. */
  outcome = $state.raw<
    { kind: 'restored'; from: number; revision: number } | { kind: 'failed'; from: number; error: ApiError } | undefined
  >(undefined);

  readonly #options: ItemHistoryOptions;

  constructor(options: ItemHistoryOptions) {
    this.#options = options;
    this.revisions = new Resource(options.list);
  }

  /** The selected revision, when it is still in the list. */
  get selectedRevision(): ItemRevisionView | undefined {
    return this.revisions.value?.find((entry) => entry.revision === this.selected);
  }

  load(options?: { silent?: boolean }): Promise<void> {
    return this.revisions.load(options);
  }

  select(revision: number | undefined): void {
    this.selected = revision;
  }

  /** Restores `revision`; true when it was restored. One restore at a time. */
  async restore(revision: number): Promise<boolean> {
    if (this.restoring !== undefined) return false;
    this.restoring = revision;
    this.outcome = undefined;
    try {
      const item = await this.#options.restore(revision);
      this.outcome = { kind: 'restored', from: revision, revision: item.revision };
      this.#options.onrestored?.(item);
      this.selected = undefined;
      await this.revisions.load({ silent: true });
      return true;
    } catch (error) {
      this.outcome = { kind: 'failed', from: revision, error: toApiError(error) };
      return false;
    } finally {
      this.restoring = undefined;
    }
  }
}
