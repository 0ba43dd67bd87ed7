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

/**
 * The relay's one hook over several subscribers, all at once (each is idempotent and needs nothing of the others, so
 * the event waits for the slowest, not for their sum). Any failure fails the hook, once every subscriber has
 * finished: the event stays owed and all of them take it again.
 */
export function toSubscribers(
  subscribers: readonly OutboxSubscriber[],
): (event: SiteEvent, eventId: string, head?: SiteHead) => Promise<void> {
  return async (event, eventId, head) => {
    const settled = await Promise.allSettled(subscribers.map((subscriber) => subscriber.onAppended(event, eventId, head)));
    const failed = settled.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  };
}
