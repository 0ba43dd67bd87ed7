import { describe, expect, it } from 'vitest';
import { callWithRetries } from './call-with-retries.js';
import { ModelCallError, retryAfterMs } from './model-call-error.js';

const failure = (kind: ModelCallError['kind'], retryAfter?: number) =>
  new ModelCallError({ provider: 'openai', kind, message: kind, ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }) });

/** Fails with the given errors in turn, then answers 'ok'. */
function flaky(errors: ModelCallError[]) {
  let calls = 0;
  const call = async () => {
    calls++;
    const error = errors.shift();
    if (error) throw error;
    return 'ok';
  };
  return { call, calls: () => calls };
}

const unexpected = () => {
  throw new Error('toError is not used for ModelCallErrors');
};

describe('callWithRetries', () => {
  it('backs off exponentially with full jitter when no Retry-After is given', async () => {
    const delays: number[] = [];
    const { call } = flaky([failure('server_error'), failure('rate_limited')]);
    const result = await callWithRetries(call, unexpected, {
      baseDelayMs: 400,
      random: () => 0.5,
      sleep: async (ms) => void delays.push(ms),
    });
    expect(result).toBe('ok');
    expect(delays).toEqual([200, 400]);
  });

  it('waits what Retry-After says instead', async () => {
    const delays: number[] = [];
    const { call } = flaky([failure('rate_limited', 3000)]);
    await callWithRetries(call, unexpected, { sleep: async (ms) => void delays.push(ms) });
    expect(delays).toEqual([3000]);
  });

  it('tries three times in all, then throws the last failure', async () => {
    const { call, calls } = flaky([failure('server_error'), failure('server_error'), failure('server_error')]);
    await expect(callWithRetries(call, unexpected, { sleep: async () => {} })).rejects.toMatchObject({ kind: 'server_error' });
    expect(calls()).toBe(3);
  });

  it('does not retry a rejected request or a timeout', async () => {
    for (const kind of ['rejected', 'timeout', 'malformed_output'] as const) {
      const { call, calls } = flaky([failure(kind)]);
      await expect(callWithRetries(call, unexpected, { sleep: async () => {} })).rejects.toMatchObject({ kind });
      expect(calls()).toBe(1);
    }
  });

  it('answers at once rather than wait a Retry-After longer than maxDelayMs', async () => {
    const delays: number[] = [];
    const { call, calls } = flaky([failure('rate_limited', 120_000)]);
    await expect(
      callWithRetries(call, unexpected, { maxDelayMs: 20_000, sleep: async (ms) => void delays.push(ms) }),
    ).rejects.toMatchObject({
      kind: 'rate_limited',
    });
    expect([calls(), delays]).toEqual([1, []]);
  });

  it('describes whatever else the call threw with toError', async () => {
    const call = async () => {
      throw new Error('socket hang up');
    };
    const toError = (error: unknown) => new ModelCallError({ provider: 'gemini', kind: 'rejected', message: String(error) });
    await expect(callWithRetries(call, toError)).rejects.toMatchObject({ provider: 'gemini', message: 'Error: socket hang up' });
  });
});

describe('retryAfterMs', () => {
  const headers = (entries: Record<string, string>) => new Headers(entries);
  it('reads seconds, an HTTP date and retry-after-ms', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(headers({ 'retry-after-ms': '150', 'retry-after': '9' }), now)).toBe(150);
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
  });
});
