import { afterEach, describe, expect, it, vi } from 'vitest';
import { SeqOrderer } from './seq-orderer.js';

type Event = { seq: number; label?: string };

function orderer(options: { lastSeq?: number; gapTimeoutMs?: number; maxBuffered?: number } = {}) {
  const delivered: number[] = [];
  const gaps: number[] = [];
  const instance = new SeqOrderer<Event>({ ...options, deliver: (event) => delivered.push(event.seq), onGap: (last) => gaps.push(last) });
  return { instance, delivered, gaps };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('SeqOrderer', () => {
  it('applies events that arrive in order at once', () => {
    const { instance, delivered } = orderer({ lastSeq: 0 });
    expect([1, 2, 3].map((seq) => instance.push({ seq }))).toEqual(['applied', 'applied', 'applied']);
    expect(delivered).toEqual([1, 2, 3]);
    expect(instance.lastSeq).toBe(3);
  });

  it('buffers early events and applies them once the missing one arrives', () => {
    const { instance, delivered } = orderer({ lastSeq: 10 });
    expect(instance.push({ seq: 13 })).toBe('buffered');
    expect(instance.push({ seq: 12 })).toBe('buffered');
    expect(delivered).toEqual([]);
    expect(instance.push({ seq: 11 })).toBe('applied');
    expect(delivered).toEqual([11, 12, 13]);
    expect(instance.buffered).toBe(0);
  });

  it('drops duplicates: already applied, and already buffered', () => {
    const { instance, delivered } = orderer({ lastSeq: 0 });
    instance.push({ seq: 1 });
    instance.push({ seq: 3 });
    expect(instance.push({ seq: 1 })).toBe('duplicate');
    expect(instance.push({ seq: 3 })).toBe('duplicate');
    instance.push({ seq: 2 });
    expect(instance.push({ seq: 2 })).toBe('duplicate');
    expect(delivered).toEqual([1, 2, 3]);
  });

  it('delivers any arrival order of a replayed range exactly once, in seq order', () => {
    const shuffles = [
      [5, 3, 1, 2, 4],
      [2, 2, 1, 5, 4, 3, 3, 1],
      [4, 5, 1, 3, 2, 5],
    ];
    for (const arrival of shuffles) {
      const { instance, delivered } = orderer({ lastSeq: 0 });
      for (const seq of arrival) instance.push({ seq });
      expect(delivered).toEqual([1, 2, 3, 4, 5]);
    }
  });

  it('without a starting seq takes the first event as the starting point', () => {
    const { instance, delivered } = orderer();
    expect(instance.lastSeq).toBeUndefined();
    instance.push({ seq: 41 });
    instance.push({ seq: 43 });
    instance.push({ seq: 42 });
    expect(delivered).toEqual([41, 42, 43]);
  });

  it('reports a gap that is not filled within the timeout, once', () => {
    vi.useFakeTimers();
    const { instance, gaps } = orderer({ lastSeq: 4, gapTimeoutMs: 1000 });
    instance.push({ seq: 6 });
    instance.push({ seq: 7 });
    vi.advanceTimersByTime(999);
    expect(gaps).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(gaps).toEqual([4]);
    vi.advanceTimersByTime(5000);
    expect(gaps).toEqual([4]);
  });

  it('does not report a gap that closes in time', () => {
    vi.useFakeTimers();
    const { instance, gaps, delivered } = orderer({ lastSeq: 0, gapTimeoutMs: 1000 });
    instance.push({ seq: 2 });
    vi.advanceTimersByTime(500);
    instance.push({ seq: 1 });
    vi.advanceTimersByTime(5000);
    expect(gaps).toEqual([]);
    expect(delivered).toEqual([1, 2]);
  });

  it('reports a gap at once when the buffer overflows', () => {
    const { instance, gaps } = orderer({ lastSeq: 0, maxBuffered: 3 });
    for (const seq of [2, 3, 4, 5]) instance.push({ seq });
    expect(gaps).toEqual([0]);
  });

  it('reset continues from the resync seq: drops what it covers, applies what follows', () => {
    const { instance, delivered } = orderer({ lastSeq: 1 });
    instance.push({ seq: 3 });
    instance.push({ seq: 9 });
    instance.push({ seq: 10 });
    instance.reset(8);
    expect(delivered).toEqual([9, 10]);
    expect(instance.lastSeq).toBe(10);
    expect(instance.push({ seq: 3 })).toBe('duplicate');
  });
});
