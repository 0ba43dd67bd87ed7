// Polls until a check passes (or throws its last failure after `timeoutMs`): for effects of background workers.

export async function eventually<T>(check: () => Promise<T>, { timeoutMs = 20_000, intervalMs = 50 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((wait) => setTimeout(wait, intervalMs));
    }
  }
}
