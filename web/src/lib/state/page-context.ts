// What a page's state class reads from the Studio and from the address bar: narrow, so a test can hand in its own.
import type { Capability } from '@lumibase/shared';
import type { ContentState } from './content.svelte.js';
import type { LiveEvents } from './live-resource.svelte.js';
import type { ToastState } from './toasts.svelte.js';

export interface StudioParts {
  readonly content: ContentState | undefined;
  readonly live: LiveEvents;
  readonly toasts: Pick<ToastState, 'show'>;
  readonly site: { readonly current: { id: string } | undefined; can(...required: Capability[]): boolean };
}

export interface NavigateOptions {
  replaceState?: boolean;
  noScroll?: boolean;
  keepFocus?: boolean;
}

/** The page's URL (SvelteKit's `page.url`) and how to change it (SvelteKit's `goto`). */
export interface Address {
  url: () => URL;
  goto: (url: URL | string, options?: NavigateOptions) => unknown;
}
