// The sockets of this process, by site: where a published site event is handed to each socket's stream.
import type { SiteEvent } from '@lumibase/shared';
import type { SocketEventStream } from './socket-event-stream.js';

/** Sends one event to the named sockets of this process, encoded once (socket.io's local room broadcast). */
export type BroadcastToSockets = (socketIds: string[], event: SiteEvent) => void;

export class SiteStreams {
  /** Per site, each stream with the id of the socket it feeds. */
  private readonly bySite = new Map<string, Map<SocketEventStream, string>>();

  constructor(private readonly broadcast: BroadcastToSockets) {}

  add(siteId: string, stream: SocketEventStream, socketId: string): () => void {
    const streams = this.bySite.get(siteId) ?? new Map<SocketEventStream, string>();
    streams.set(stream, socketId);
    this.bySite.set(siteId, streams);
    return () => {
      stream.close();
      streams.delete(stream);
      if (streams.size === 0) this.bySite.delete(siteId);
    };
  }

  /**
   * The sockets that are caught up (the usual case: every socket of a site that is not replaying) get the event in
   * one broadcast; each of the others through its own stream, which fills its gap or waits behind its replay.
   */
  deliver(event: SiteEvent): void {
    const streams = this.bySite.get(event.payload.siteId);
    if (!streams) return;
    const caughtUp: string[] = [];
    for (const [stream, socketId] of streams) {
      if (stream.claimNext(event)) caughtUp.push(socketId);
      else void stream.deliver(event);
    }
    if (caughtUp.length > 0) this.broadcast(caughtUp, event);
  }

  /**
   * Every socket of this process catches up from the log (after its subscription to other processes' events was
   * down): the site's latest seq is read once per site, not once per socket. A site whose read fails has each
   * socket read it for itself.
   */
  async refreshAll(): Promise<void> {
    await Promise.all(
      [...this.bySite.values()].map(async (streams) => {
        const [first] = streams.keys();
        if (!first) return;
        const current = await first.latestSeq().catch(() => undefined);
        for (const stream of streams.keys()) void stream.refresh(current);
      }),
    );
  }

  count(): number {
    let sockets = 0;
    for (const streams of this.bySite.values()) sockets += streams.size;
    return sockets;
  }
}
