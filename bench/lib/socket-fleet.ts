// Many sockets of one site, held by socket-clients load-generator processes (at most PER_PROCESS each),
// and the rounds of a broadcast: wait for every socket to receive the next event that `trigger` causes.
import { type BenchChild, startChild } from './children.js';
import { SETTINGS } from './settings.js';

const PER_PROCESS = 500;

export interface Receipts {
  /** Receipt times (epoch ms) by event key `name:seq`. */
  receipts: Record<string, number[]>;
  /** The emitter's timestamp by key, when the payload carried one. */
  sentAt: Record<string, number>;
}

export class SocketFleet {
  private readonly children: Array<{ child: BenchChild; sockets: number }> = [];
  size = 0;
  failed = 0;

  /** Opens sockets to `url` until the fleet holds `total` (spread across processes). */
  async grow(total: number, url: string, auth: Record<string, unknown>): Promise<void> {
    while (this.size < total) {
      let holder = this.children.find((entry) => entry.sockets < PER_PROCESS);
      if (!holder) {
        holder = { child: startChild('socket-clients.ts', { lifetimeMs: SETTINGS.childLifetimeMs }), sockets: 0 };
        this.children.push(holder);
      }
      const count = Math.min(PER_PROCESS - holder.sockets, total - this.size);
      const answer = await holder.child.ask<{ connected: number; failed: number }>('connect', { url, auth, count });
      const added = answer.connected - holder.sockets;
      holder.sockets = answer.connected;
      this.size += added;
      this.failed += answer.failed;
      if (added === 0) throw new Error(`no socket could connect to ${url} (${answer.failed} refused)`);
    }
  }

  /**
   * Runs `trigger`, waits until every socket received the event it caused (or `timeoutMs`), and answers
   * that event's receipts only (whatever else arrived meanwhile, e.g. a previous round's stragglers, is left out).
   */
  async round(
    trigger: () => Promise<unknown>,
    eventName: string,
    timeoutMs = 15_000,
  ): Promise<{ key: string | undefined; receipts: Receipts }> {
    await this.collect();
    const waits = this.children.map((entry) =>
      entry.child.ask<{ key: string | null }>('next', { timeoutMs, prefix: `${eventName}:` }, timeoutMs + 5000),
    );
    await trigger();
    const completed = (await Promise.all(waits)).map((answer) => answer.key).filter((key): key is string => key !== null);
    const receipts = await this.collect();
    // The event every process saw complete; when none did (a socket missed it), the one most received.
    const key =
      completed[0] ??
      Object.entries(receipts.receipts)
        .filter(([name]) => name.startsWith(`${eventName}:`))
        .sort(([, a], [, b]) => b.length - a.length)[0]?.[0];
    return { key, receipts };
  }

  /** Every receipt since the last collect, merged across processes. */
  async collect(): Promise<Receipts> {
    const merged: Receipts = { receipts: {}, sentAt: {} };
    for (const { child } of this.children) {
      const answer = await child.ask<Receipts>('collect');
      for (const [key, times] of Object.entries(answer.receipts)) merged.receipts[key] = [...(merged.receipts[key] ?? []), ...times];
      Object.assign(merged.sentAt, answer.sentAt);
    }
    return merged;
  }

  async close(): Promise<void> {
    await Promise.all(this.children.map(({ child }) => child.stop()));
    this.children.length = 0;
    this.size = 0;
  }
}
