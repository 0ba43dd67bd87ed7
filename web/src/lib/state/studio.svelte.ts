// The Studio's object graph for one tab (API client → session → site → live → content), shared through Svelte context.
import { getContext, setContext } from 'svelte';
import { type Api, createApi } from '../api/index.js';
import type { SocketFactory } from '../realtime/realtime-client.js';
import { ContentState } from './content.svelte.js';
import { LiveState } from './live.svelte.js';
import { SessionState } from './session.svelte.js';
import { type KeyValueStorage, SiteState } from './site.svelte.js';
import { ToastState } from './toasts.svelte.js';

export interface StudioOptions {
  fetch?: typeof globalThis.fetch;
  storage?: KeyValueStorage | undefined;
  createSocket?: SocketFactory;
}

export class Studio {
  readonly api: Api;
  readonly session: SessionState;
  readonly site: SiteState;
  readonly live: LiveState;
  readonly toasts = new ToastState();

  constructor({ fetch, storage, createSocket }: StudioOptions = {}) {
    this.api = createApi({ ...(fetch ? { fetch } : {}), onUnauthenticated: () => this.session.expire() });
    this.session = new SessionState(this.api);
    this.site = new SiteState(this.session, storage);
    this.live = new LiveState({
      ...(createSocket ? { createSocket } : {}),
      onUnauthenticated: () => this.session.expire(),
      // Until the Copilot's routes answer, the socket starts from the first live event instead.
      currentSeq: (siteId) => this.api.site(siteId).events.currentSeq(),
    });
    this.live.on('content-changed', (event) => this.content?.handle(event));
    this.live.onResync(() => this.content?.resync());
  }

  /** The current site's content, re-created when the site changes. */
  content: ContentState | undefined = $derived.by(() => {
    const siteId = this.#siteId;
    return siteId ? new ContentState(this.api.site(siteId)) : undefined;
  });

  // A primitive: a re-read site list with the same current site does not re-create (and reload) the content.
  #siteId: string | undefined = $derived.by(() => this.site.current?.id);
}

const STUDIO = Symbol('studio');

export function setStudio(studio: Studio): Studio {
  return setContext(STUDIO, studio);
}

export function getStudio(): Studio {
  const studio = getContext<Studio | undefined>(STUDIO);
  if (!studio) throw new Error('getStudio() needs the Studio context (set in the root layout)');
  return studio;
}
