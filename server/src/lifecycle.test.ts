import { describe, expect, it } from 'vitest';
import { Lifecycle, type Part, StoppingError } from './lifecycle.js';

function recorder() {
  const log: string[] = [];
  const part = (name: string, options: { failStart?: boolean; failStop?: boolean } = {}): Part => ({
    name,
    start: () => {
      if (options.failStart) throw new Error(`${name} did not start`);
      log.push(`start ${name}`);
    },
    stop: () => {
      log.push(`stop ${name}`);
      if (options.failStop) throw new Error(`${name} did not stop`);
    },
  });
  return { log, part };
}

describe('Lifecycle', () => {
  it('starts parts in order and stops them in reverse', async () => {
    const { log, part } = recorder();
    const lifecycle = new Lifecycle();
    await lifecycle.compose(async () => {
      await lifecycle.start(part('infrastructure'));
      await lifecycle.start(part('domain'));
      await lifecycle.start(part('workers'));
    });
    await lifecycle.stop();
    expect(log).toEqual(['start infrastructure', 'start domain', 'start workers', 'stop workers', 'stop domain', 'stop infrastructure']);
  });

  describe('when a part fails to start', () => {
    it('stops the parts already started, in reverse, and rejects with the start-up error', async () => {
      const { log, part } = recorder();
      const lifecycle = new Lifecycle();
      const composed = lifecycle.compose(async () => {
        await lifecycle.start(part('infrastructure'));
        await lifecycle.start(part('domain'));
        await lifecycle.start(part('listening', { failStart: true }));
        await lifecycle.start(part('never'));
      });
      await expect(composed).rejects.toThrow('listening did not start');
      // The failed part cleans up after itself: only started parts are stopped.
      expect(log).toEqual(['start infrastructure', 'start domain', 'stop domain', 'stop infrastructure']);
    });
  });

  it('stops every part once, even when one fails to stop, and then rejects', async () => {
    const { log, part } = recorder();
    const lifecycle = new Lifecycle();
    await lifecycle.start(part('first'));
    await lifecycle.start(part('second', { failStop: true }));
    await lifecycle.start(part('third'));
    await expect(lifecycle.stop()).rejects.toThrow('second did not stop');
    await expect(lifecycle.stop()).rejects.toThrow('second did not stop');
    expect(log.filter((line) => line.startsWith('stop'))).toEqual(['stop third', 'stop second', 'stop first']);
  });

  it('starts nothing once stopping, and stops a part whose start the stop overtook', async () => {
    const log: string[] = [];
    const lifecycle = new Lifecycle();
    await lifecycle.start({ name: 'first', stop: () => void log.push('stop first') });
    let started!: () => void;
    const slow = lifecycle.start({
      name: 'slow',
      start: () => new Promise<void>((resolve) => (started = resolve)),
      stop: () => void log.push('stop slow'),
    });
    await lifecycle.stop();
    started();
    await expect(slow).rejects.toBeInstanceOf(StoppingError);
    await expect(lifecycle.start({ name: 'late', stop: () => void log.push('stop late') })).rejects.toBeInstanceOf(StoppingError);
    expect(log).toEqual(['stop first', 'stop slow']);
  });
});
