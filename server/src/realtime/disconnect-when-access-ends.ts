// The one way sockets lose access: what the services announce (a session ended, a membership removed or reduced, a
// site deleted) disconnects the sockets it concerns on every server process, whichever process made the change.
import type { DomainEvents } from '../services/domain-events.js';
import { memberRoom, sessionRoom, siteRoom } from './socket-server.js';

/**
 * What disconnects a room's sockets on every server: a server's socket.io (its own sockets at once, the others'
 * through the Redis adapter) or, in a process without a socket server (the workers), the socket.io Redis emitter.
 */
export interface RoomDisconnector {
  in(room: string): { disconnectSockets(close?: boolean): void };
}

/**
 * Subscribes the disconnections to the domain's announcements; returns their removal. Every composed domain does this
 * (compose-domain.ts), so a change made by an approved skill in a worker disconnects like one made over REST.
 *
 * No site event written after the change reaches those sockets: the services announce synchronously after the
 * change is stored, so the disconnection is published before the change's caller goes on, and before any site event
 * that caller (or anyone it answered) writes next. A server disconnects its own sockets at once; the others hear it
 * over Redis ahead of any event published after it on the same connection, and Redis hands every subscriber the
 * messages in the order it executed their PUBLISH.
 */
export function disconnectWhenAccessEnds(events: DomainEvents, rooms: RoomDisconnector): () => void {
  const disconnect = (room: string) => rooms.in(room).disconnectSockets(true);
  const removals = [
    events.on('session-revoked', ({ sessionId }) => disconnect(sessionRoom(sessionId))),
    events.on('membership-removed', ({ siteId, userId }) => disconnect(memberRoom(siteId, userId))),
    events.on('membership-reduced', ({ siteId, userId }) => disconnect(memberRoom(siteId, userId))),
    events.on('site-removed', ({ siteId }) => disconnect(siteRoom(siteId))),
  ];
  return () => {
    for (const remove of removals) remove();
  };
}
