// What the services announce after a session or membership ends, for the realtime layer to disconnect sockets.
// Content changes are not here: they owe site events, recorded atomically with the change (store/outbox.ts).
import { EventEmitter } from 'node:events';

export interface DomainEventMap {
  /** A session ended (logout): its sockets should be disconnected. */
  'session-revoked': { sessionId: string; userId: string };
  /** A user lost access to a site: their sockets in that site should be disconnected. */
  'membership-removed': { siteId: string; userId: string };
  /** A user's membership of a site was changed to hold less: their sockets in that site should be disconnected. */
  'membership-reduced': { siteId: string; userId: string };
  /** A site was deleted: every socket in it should be disconnected (superadmins' too). */
  'site-removed': { siteId: string };
}

type Listener<K extends keyof DomainEventMap> = (event: DomainEventMap[K]) => void;

/**
 * In-process and after the fact: a listener learns of a change that has already happened, and a
 * throwing listener never undoes it (the error is reported to `onListenerError`). Events that must
 * reach other processes are the listener's job to forward (realtime/disconnect-when-access-ends.ts).
 */
export class DomainEvents {
  private readonly emitter = new EventEmitter();

  constructor(private readonly onListenerError: (error: unknown, event: keyof DomainEventMap) => void = () => {}) {
    this.emitter.setMaxListeners(0);
  }

  on<K extends keyof DomainEventMap>(name: K, listener: Listener<K>): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }

  emit<K extends keyof DomainEventMap>(name: K, event: DomainEventMap[K]): void {
    for (const listener of this.emitter.listeners(name) as Listener<K>[]) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error, name);
      }
    }
  }
}
