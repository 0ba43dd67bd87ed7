// The one polling helper for cross-process tests: read until a condition holds or a deadline passes.

export const sleep = (ms: number) => new Promise<void>((wait) => setTimeout(wait, ms));

/**
 * Calls `read` every `intervalMs` until `done(value)` holds and answers that value; past `timeoutMs`
 * it throws with `what` and the last value read, so a failing test says what it was waiting for.
 */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 30_000, intervalMs = 100, what = 'condition' }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms; last: ${JSON.stringify(value)}`);
    await sleep(intervalMs);
  }
}
