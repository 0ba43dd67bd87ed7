// "Load, subscribe, reload on resync": a view's data read once, kept current by the site events that change it, and
// read again (quietly) whenever events may have been missed. Returns the function that stops listening.
import { untrack } from 'svelte';
import type { SiteEventName, SiteEventPayloads } from '../realtime/events.js';
import type { LiveState } from './live.svelte.js';

/** The part of LiveState a live view listens to. */
export type LiveEvents = Pick<LiveState, 'on' | 'onResync'>;

export type SiteEventHandlers = { [Name in SiteEventName]?: (payload: SiteEventPayloads[Name]) => void };

export interface LiveResourceSpec {
  /** The first read. */
  load: () => unknown;
  /** Events may have been missed (a reconnect, resync-required): read again without a spinner. */
  resync: () => unknown;
  /** The site events that change what the view shows. */
  on?: SiteEventHandlers;
}

/** A Resource-like value that reloads quietly. */
export interface Reloadable {
  load(options?: { silent?: boolean }): unknown;
}

/**
 * Loads, subscribes and reloads on resync. Call it inside an `$effect` and return its result: the load runs untracked,
 * so the effect re-runs only when what it read before the call changes (another site, another collection).
 */
export function liveResource(live: LiveEvents, spec: LiveResourceSpec): () => void {
  untrack(() => spec.load());
  const offs = Object.entries(spec.on ?? {}).map(([name, handler]) =>
    live.on(name as SiteEventName, (payload) => untrack(() => (handler as (payload: unknown) => void)(payload))),
  );
  offs.push(live.onResync(() => untrack(() => spec.resync())));
  return () => {
    for (const off of offs) off();
  };
}

/** The common case: a Resource read once, read again quietly on each of `events` and on resync. */
export function reloading(resource: Reloadable, events: readonly SiteEventName[] = []): LiveResourceSpec {
  const reload = () => void resource.load({ silent: true });
  return {
    load: () => void resource.load(),
    resync: reload,
    on: Object.fromEntries(events.map((name) => [name, reload])),
  };
}
