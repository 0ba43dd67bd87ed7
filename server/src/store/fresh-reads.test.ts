// Shared reads: callers asking at once share one, yet none is ever answered by a read that started before it asked.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FreshReads } from './fresh-reads.js';

/** A read the test finishes by hand. It answers the value as it was when it started: the worst a database read may do. */
function controlledSource() {
  let value = 0;
  const running: Array<{ startedAt: number; finish: () => void }> = [];
  let started = 0;
  return {
    started: () => started,
    running,
    /** A write, answered: reads started from now on see it. */
    write: () => ++value,
    read: () =>
      new Promise<number>((resolve) => {
        started++;
        const startedAt = value;
        running.push({ startedAt, finish: () => resolve(startedAt) });
      }),
    finishAll() {
      for (const read of running.splice(0)) read.finish();
    },
  };
}

const ticks = async (count = 5) => {
  for (let tick = 0; tick < count; tick++) await Promise.resolve();
};

describe('FreshReads', () => {
  it('callers asking while a read runs share the next read: two reads for any number of callers', async () => {
    const source = controlledSource();
    const reads = new FreshReads<number>();
    const first = reads.read('site', source.read);
    await ticks();
    const later = Array.from({ length: 50 }, () => reads.read('site', source.read));
    await ticks();
    expect(source.started()).toBe(1);
    source.finishAll();
    await first;
    await ticks();
    expect(source.started(), 'the 50 share one read, started once the first ended').toBe(2);
    source.finishAll();
    expect(new Set(await Promise.all(later)).size).toBe(1);
    expect(reads.size, 'no entry is left once the reads ended').toBe(0);
  });

  it('a caller is never answered by a read already running when it asked (a write between is always seen)', async () => {
    const source = controlledSource();
    const reads = new FreshReads<number>();
    const early = reads.read('k', source.read);
    await ticks();
    // The early read has already taken its snapshot (a read on the wire); a write lands and answers; then a caller asks.
    const snapshot = source.running[0]?.startedAt ?? Number.NaN;
    expect(snapshot).toBe(0);
    source.write();
    const late = reads.read('k', source.read);
    source.finishAll();
    expect(await early).toBe(snapshot);
    await ticks();
    source.finishAll();
    expect(await late).toBeGreaterThan(snapshot);
    expect(source.started()).toBe(2);
  });

  it('keys are independent, and a failed read fails only the callers that shared it', async () => {
    const reads = new FreshReads<string>();
    let fail = true;
    const read = (key: string) => () => (fail ? Promise.reject(new Error(`down ${key}`)) : Promise.resolve(`ok ${key}`));
    const [a, b] = await Promise.allSettled([reads.read('a', read('a')), reads.read('a', read('a'))]);
    expect(a.status).toBe('rejected');
    expect(b.status, 'the second caller asked while the first read ran, which failed: it fails with it').toBe('rejected');
    fail = false;
    expect(await Promise.all([reads.read('a', read('a')), reads.read('b', read('b'))])).toEqual(['ok a', 'ok b']);
    expect(reads.size).toBe(0);
  });

  it('callers waiting behind a read that fails fail with it at once, without a read of their own (a database down)', async () => {
    const reads = new FreshReads<number>();
    let started = 0;
    let fail!: (error: Error) => void;
    const read = () => {
      started++;
      return new Promise<number>((_, reject) => {
        fail = reject;
      });
    };
    const first = reads.read('site', read);
    await ticks();
    const waiting = Array.from({ length: 5 }, () => reads.read('site', read));
    fail(new Error('server selection timed out'));
    const outcomes = await Promise.allSettled([first, ...waiting]);
    expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
    expect(started, 'one read, and its failure for all of them').toBe(1);
    expect(reads.size).toBe(0);
  });

  it('property: every answer is at least the value written before its caller asked', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('ask', 'write', 'finish', 'tick'), { minLength: 1, maxLength: 60 }), async (steps) => {
        const source = controlledSource();
        const reads = new FreshReads<number>();
        const answers: Array<Promise<{ answer: number; floor: number }>> = [];
        let written = 0;
        for (const step of steps) {
          if (step === 'ask') {
            const floor = written;
            answers.push(reads.read('site', source.read).then((answer) => ({ answer, floor })));
          } else if (step === 'write') written = source.write();
          else if (step === 'finish') source.finishAll();
          else await ticks();
        }
        for (let round = 0; round < 10; round++) {
          await ticks();
          source.finishAll();
        }
        for (const { answer, floor } of await Promise.all(answers)) expect(answer).toBeGreaterThanOrEqual(floor);
        expect(reads.size).toBe(0);
      }),
    );
  });
});
