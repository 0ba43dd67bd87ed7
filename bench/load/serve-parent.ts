// The child side of bench/lib/children.ts: answers the parent's requests and ends itself when its
// lifetime is up or the parent disconnects, so no load generator outlives a bench run.
type Handler = (request: Record<string, unknown>) => Promise<unknown> | unknown;

export function serveParent(handlers: Record<string, Handler>, onExit: () => Promise<void> | void = () => {}): void {
  const lifetimeMs = Number(process.env.BENCH_CHILD_LIFETIME_MS ?? 60_000);
  let exiting = false;
  const exit = async () => {
    if (exiting) return;
    exiting = true;
    await Promise.race([onExit(), new Promise((done) => setTimeout(done, 2000))]);
    process.exit(0);
  };
  setTimeout(exit, lifetimeMs);
  process.on('disconnect', exit);
  process.on('SIGTERM', exit);
  process.on('message', async (message: { id: number; type: string } & Record<string, unknown>) => {
    const handler = handlers[message.type];
    try {
      if (!handler) throw new Error(`unknown request ${message.type}`);
      process.send?.({ id: message.id, result: (await handler(message)) ?? null });
    } catch (error) {
      process.send?.({ id: message.id, error: error instanceof Error ? error.message : String(error) });
    }
  });
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes of one machine. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}
