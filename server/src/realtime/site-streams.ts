// The sockets of this process, by site: where a published site event is handed to each socket's stream.
import type { SiteEvent } from '@lumibase/shared';
import type { SocketEventStream } from './socket-event-stream.js';

export class SiteStreams {
  private readonly bySite = new Map<string, Set<SocketEventStream>>();

  add(siteId: string, stream: SocketEventStream): () => void {
    const streams = this.bySite.get(siteId) ?? new Set();
    streams.add(stream);
    this.bySite.set(siteId, streams);
    return () => {
      stream.close();
      streams.delete(stream);
      if (streams.size === 0) this.bySite.delete(siteId);
    };
  }

  deliver(event: SiteEvent): void {
    for (const stream of this.bySite.get(event.payload.siteId) ?? []) void stream.deliver(event);
  }

  /**
   * Every socket of this process catches up from the log (after its subscription to other processes' events was
   * down): the site's latest seq is read once per site, not once per socket. A site whose read fails has each
   * socket read it for itself.
   */
  async refreshAll(): Promise<void> {
    await Promise.all(
      [...this.bySite.values()].map(async (streams) => {
        const [first] = streams;
        if (!first) return;
        const current = await first.latestSeq().catch(() => undefined);
        for (const stream of streams) void stream.refresh(current);
      }),
    );
  }

  count(): number {
    let sockets = 0;
    for (const streams of this.bySite.values()) sockets += streams.size;
    return sockets;
  }
}
