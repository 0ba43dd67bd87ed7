// A background task run now and then every interval: runs never overlap, a failure is reported and retried on the next tick.
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly run: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(intervalMs: number): void {
    const tick = () => {
      this.running = this.running.then(this.run).catch(this.onError);
    };
    tick();
    this.timer = setInterval(tick, intervalMs);
    // Never what keeps a process alive: shutdown stops it explicitly.
    this.timer.unref();
  }

  /** Stops the ticks and waits for the run under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
