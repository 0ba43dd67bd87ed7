import { describe, expect, it } from 'vitest';
import { ApiError, describeError } from '../api/index.js';
import { AsyncAction } from './async-action.svelte.js';

/** A promise a test settles by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const unavailable = new ApiError({ status: 503, code: 'UNAVAILABLE', message: 'The model is not reachable' });

describe('AsyncAction', () => {
  it('is busy while it runs, then holds the value', async () => {
    const answer = deferred<string>();
    const action = new AsyncAction((text: string) => answer.promise.then((value) => `${value} ${text}`));
    const running = action.run('world');
    expect(action.busy).toBe(true);
    answer.resolve('hello');
    expect(await running).toBe('hello world');
    expect({ busy: action.busy, value: action.value, error: action.error, message: action.message }).toEqual({
      busy: false,
      value: 'hello world',
      error: undefined,
      message: undefined,
    });
  });

  it('ends a failure not busy, with the error described and the old value gone', async () => {
    let fail = false;
    const action = new AsyncAction(
      async () => {
        if (fail) throw unavailable;
        return 1;
      },
      { describe: (error) => `Said: ${error.message}` },
    );
    await action.run(undefined);
    fail = true;
    expect(await action.run(undefined)).toBeUndefined();
    expect(action.busy).toBe(false);
    expect(action.error?.code).toBe('UNAVAILABLE');
    expect(action.message).toBe('Said: The model is not reachable');
    expect(action.value).toBeUndefined();
  });

  it('clears the last error when the next run starts, and keeps the last value while it runs', async () => {
    const answers = [deferred<number>(), deferred<number>()];
    let call = 0;
    const action = new AsyncAction(() => answers[call++]!.promise);
    const first = action.run(undefined);
    answers[0]!.resolve(7);
    await first;
    action.refuse('Say what to write first.');
    expect(action.message).toBe('Say what to write first.');
    const second = action.run(undefined);
    expect({ busy: action.busy, value: action.value, message: action.message }).toEqual({ busy: true, value: 7, message: undefined });
    answers[1]!.reject(unavailable);
    await second;
    expect(action.message).toBe(describeError(unavailable));
    expect(action.value).toBeUndefined();
    expect(action.error?.code).toBe('UNAVAILABLE');
  });

  it('lets only the latest run count: an earlier one is aborted and its answer dropped', async () => {
    const answers = [deferred<string>(), deferred<string>()];
    const signals: AbortSignal[] = [];
    let call = 0;
    const action = new AsyncAction((_input: string, signal) => {
      signals.push(signal);
      return answers[call++]!.promise;
    });
    const first = action.run('a');
    const second = action.run('ab');
    expect(signals[0]!.aborted).toBe(true);
    answers[1]!.resolve('second');
    expect(await second).toBe('second');
    answers[0]!.resolve('first');
    expect(await first).toBeUndefined();
    expect(action.value).toBe('second');
    expect(action.busy).toBe(false);
  });

  it('reset drops the run in flight: not busy, nothing shown, its late answer ignored', async () => {
    const answer = deferred<string>();
    const action = new AsyncAction(() => answer.promise);
    const running = action.run(undefined);
    action.reset();
    expect(action.busy).toBe(false);
    answer.resolve('late');
    expect(await running).toBeUndefined();
    expect(action.value).toBeUndefined();
  });
});
