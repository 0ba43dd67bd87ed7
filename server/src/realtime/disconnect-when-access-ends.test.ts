// What each announcement of access ended disconnects: the room of the session, of the member in the site, or of the site.
import { describe, expect, it } from 'vitest';
import { DomainEvents } from '../services/domain-events.js';
import { disconnectWhenAccessEnds, type RoomDisconnector } from './disconnect-when-access-ends.js';
import { memberRoom, sessionRoom, siteRoom } from './socket-server.js';

/** Records the rooms disconnected, as the server's io or the workers' emitter would disconnect them everywhere. */
function recordingRooms(): RoomDisconnector & { disconnected: Array<[string, boolean | undefined]> } {
  const disconnected: Array<[string, boolean | undefined]> = [];
  return { disconnected, in: (room) => ({ disconnectSockets: (close) => disconnected.push([room, close]) }) };
}

describe('disconnectWhenAccessEnds', () => {
  it('closes the room each announcement names, and nothing once removed', () => {
    const events = new DomainEvents();
    const rooms = recordingRooms();
    const remove = disconnectWhenAccessEnds(events, rooms);
    events.emit('session-revoked', { sessionId: 's1', userId: 'u1' });
    events.emit('membership-removed', { siteId: 'site1', userId: 'u2' });
    events.emit('membership-reduced', { siteId: 'site1', userId: 'u3' });
    events.emit('site-removed', { siteId: 'site2' });
    expect(rooms.disconnected).toEqual([
      [sessionRoom('s1'), true],
      [memberRoom('site1', 'u2'), true],
      [memberRoom('site1', 'u3'), true],
      [siteRoom('site2'), true],
    ]);
    remove();
    events.emit('session-revoked', { sessionId: 's2', userId: 'u1' });
    events.emit('membership-reduced', { siteId: 'site1', userId: 'u3' });
    expect(rooms.disconnected).toHaveLength(4);
  });
});
