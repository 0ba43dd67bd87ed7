// A value loaded from the API, with the loading / ready / error states every view shows; stale replies are ignored.
import { type ApiError, toApiError } from '../api/index.js';

export type ResourceStatus = 'idle' | 'loading' | 'ready' | 'error';

export class Resource<T> {
  status = $state<ResourceStatus>('idle');
  value = $state.raw<T | undefined>(undefined);
  error = $state.raw<ApiError | undefined>(undefined);
  /** True while a background refresh runs over a value already shown. */
  refreshing = $state(false);

  readonly #loader: () => Promise<T>;
  #generation = 0;

  constructor(loader: () => Promise<T>) {
    this.#loader = loader;
  }

  /** `silent` keeps the current value on screen while it refreshes (live updates, retries after a write). */
  async load({ silent = false }: { silent?: boolean } = {}): Promise<void> {
    const generation = ++this.#generation;
    const keepShowing = silent && this.status === 'ready';
    if (keepShowing) this.refreshing = true;
    else this.status = 'loading';
    try {
      const value = await this.#loader();
      if (generation !== this.#generation) return;
      this.value = value;
      this.error = undefined;
      this.status = 'ready';
    } catch (error) {
      if (generation !== this.#generation) return;
      this.error = toApiError(error);
      if (!keepShowing) this.status = 'error';
    } finally {
      if (generation === this.#generation) this.refreshing = false;
    }
  }

  /** Replaces the shown value (an optimistic update); a later load overrides it. */
  set(value: T): void {
    this.value = value;
    this.status = 'ready';
  }
}
