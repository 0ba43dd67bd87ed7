// Load generator: holds N socket.io clients of one site and records when each received each event.
// Requests: connect, next (wait for an event every socket received), collect, close.
import { io, type Socket } from 'socket.io-client';
import { epochMs, serveParent } from './serve-parent.js';

const EVENTS = ['approval-created', 'approval-decided', 'content-changed'];
const CONNECT_BATCH = 50;

const sockets: Socket[] = [];
/** Receipt times by event key (`name:seq`). */
const receipts = new Map<string, number[]>();
/** The emitter's own timestamp, when the payload carries one (the bare server's `sentAt`). */
const sentAt = new Map<string, number>();
const completed: string[] = [];
let notify: (() => void) | undefined;

function record(name: string, payload: { seq?: number; sentAt?: number; approval?: { status?: string } }): void {
  const at = epochMs();
  const key = `${name}:${payload.seq}`;
  let times = receipts.get(key);
  if (!times) {
    times = [];
    receipts.set(key, times);
  }
  times.push(at);
  if (payload.sentAt !== undefined) sentAt.set(key, payload.sentAt);
  if (times.length === sockets.length) {
    completed.push(key);
    notify?.();
  }
}

function connectOne(url: string, auth: Record<string, unknown>): Promise<Socket> {
  const socket = io(url, { path: '/socket.io', auth, transports: ['websocket'], reconnection: false, forceNew: true });
  for (const name of EVENTS) socket.on(name, (payload) => record(name, payload));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}

serveParent(
  {
    async connect(request) {
      const { url, auth, count } = request as unknown as { url: string; auth: Record<string, unknown>; count: number };
      let failed = 0;
      for (let start = 0; start < count; start += CONNECT_BATCH) {
        const batch = await Promise.allSettled(Array.from({ length: Math.min(CONNECT_BATCH, count - start) }, () => connectOne(url, auth)));
        for (const result of batch) {
          if (result.status === 'fulfilled') sockets.push(result.value);
          else failed++;
        }
      }
      return { connected: sockets.length, failed };
    },
    /** Resolves with the next event key every socket received, or the most-received key at the timeout. */
    async next(request) {
      const timeoutMs = Number(request.timeoutMs ?? 10_000);
      const prefix = String(request.prefix ?? '');
      const deadline = Date.now() + timeoutMs;
      const matching = () => completed.findIndex((key) => key.startsWith(prefix));
      while (matching() < 0 && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          notify = resolve;
          setTimeout(resolve, Math.max(1, deadline - Date.now()));
        });
        notify = undefined;
      }
      const index = matching();
      const key = index < 0 ? undefined : completed.splice(index, 1)[0];
      if (key) return { key, received: receipts.get(key)?.length ?? 0, complete: true };
      return { key: null, received: 0, complete: false };
    },
    collect() {
      const answer = {
        receipts: Object.fromEntries(receipts),
        sentAt: Object.fromEntries(sentAt),
        sockets: sockets.length,
      };
      receipts.clear();
      sentAt.clear();
      completed.length = 0;
      return answer;
    },
    close() {
      for (const socket of sockets.splice(0)) socket.close();
      return { closed: true };
    },
  },
  () => {
    for (const socket of sockets) socket.close();
  },
);
