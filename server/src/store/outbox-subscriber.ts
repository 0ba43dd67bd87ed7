// What the outbox relay hands every site event to once the event has its seq, before the event is cleared from its
// document: the subscribers (embeddings, webhooks) the composition registers, each a module of its own.
import type { SiteEvent } from '@lumibase/shared';
import type { SiteHead } from './event-log.store.js';

export interface OutboxSubscriber {
  /** For logs and tests. */
  readonly name: string;
  /**
   * Takes the event; must be idempotent per eventId. A rejection leaves the event owed: the relay tries it again
   * later, with every subscriber again (the ones that took it already find their work done). `head`: the site's
   * head as the event's append left it, absent when the append did not move it (a retry finding the event).
   */
  onAppended(event: SiteEvent, eventId: string, head?: SiteHead): Promise<void>;
}

/** The relay's one hook over several subscribers, called in the order given; the first failure stops the rest. */
export function toSubscribers(
  subscribers: readonly OutboxSubscriber[],
): (event: SiteEvent, eventId: string, head?: SiteHead) => Promise<void> {
  return async (event, eventId, head) => {
    for (const subscriber of subscribers) await subscriber.onAppended(event, eventId, head);
  };
}
