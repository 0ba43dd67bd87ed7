// Test support: two processes appending to one site's numbered chain in turns (the event log, the audit chain; both
// number through store/cached-head.ts). The watched one must read the head before the first append of each turn and
// guess (no read) for the rest of it: the same scenario and the same command sequences for each chain.
import { expect } from 'vitest';
import { BURST_MS } from '../src/store/cached-head.js';
import type { WatchedConnection } from './watched-connection.js';

export interface TurnsOptions<Store> {
  /** `a` appends over `watched`; `b` over a connection of its own, as another process. */
  a: Store;
  b: Store;
  watched: WatchedConnection;
  /** Appends one entry named `name` and answers its seq. */
  append: (store: Store, name: string) => Promise<number | undefined>;
  /** The chain's entries and its head collection, as the commands name them. */
  entries: string;
  heads: string;
}

/** Waits past a turn: the next append is the first of a new one. */
export const pastBurst = () => new Promise((resolve) => setTimeout(resolve, BURST_MS + 20));

/** Plays a1 b1 a2 b2, a pause, then a3 a4: four entries before the watched turn, six after it. */
export async function takeTurns<Store>({ a, b, watched, append, entries, heads }: TurnsOptions<Store>): Promise<void> {
  await append(a, 'a1');
  await append(b, 'b1');
  await append(a, 'a2'); // refused once: a now knows the site is shared
  await append(b, 'b2');
  await pastBurst();
  watched.take();
  expect(await append(a, 'a3')).toBe(5);
  expect(watched.take()).toEqual([`find ${heads}`, `insert ${entries}`, `findAndModify ${heads}`]);
  // The rest of the turn guesses.
  expect(await append(a, 'a4')).toBe(6);
  expect(watched.take()).toEqual([`insert ${entries}`, `findAndModify ${heads}`]);
}
