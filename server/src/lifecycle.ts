// A process's life: its parts started in order and stopped in reverse (Lifecycle), and graceful shutdown on
// SIGTERM/SIGINT (run the stop once, within a bound, then exit).
import { isDependencyOutage } from './infrastructure/dependency-outage.js';
import type { Logger } from './logger.js';

const SHUTDOWN_BOUND_MS = 15_000;

/**
 * One part of a process: started after the parts before it, stopped before them. `start` is what begins work
 * (listening, a periodic task); a part whose start fails cleans up after itself, and only started parts are stopped.
 */
export interface Part {
  name: string;
  start?: () => Promise<void> | void;
  stop: () => Promise<void> | void;
}

/** Thrown by `start` once the process is stopping: a start-up cut short by a shutdown, not a start-up error. */
export class StoppingError extends Error {
  constructor(part: string) {
    super(`not starting ${part}: the process is stopping`);
    this.name = 'StoppingError';
  }
}

/**
 * A process's parts in the order they started: each process's composition root adds them as it builds its object
 * graph (a later part uses what an earlier one opened), and `stop` stops them in reverse, so nothing stops while a
 * part started after it still uses it.
 */
export class Lifecycle {
  private readonly started: Part[] = [];
  private stopping: Promise<void> | undefined;

  constructor(private readonly logger?: Logger) {}

  /** Starts `part` after the ones already started (it is stopped before them). */
  async start(part: Part): Promise<void> {
    if (this.stopping) throw new StoppingError(part.name);
    await part.start?.();
    // A stop that began while this part was starting has already stopped the others: stop this one as well.
    if (this.stopping) {
      await this.stopPart(part);
      throw new StoppingError(part.name);
    }
    this.started.push(part);
  }

  /** Runs a composition root: if any of its parts fails to start, the ones it started are stopped, then it rejects. */
  async compose<T>(build: () => Promise<T>): Promise<T> {
    try {
      return await build();
    } catch (error) {
      // A part that also fails to stop is logged; the start-up error is the one to report.
      await this.stop().catch(() => {});
      throw error;
    }
  }

  /** Stops every started part, the last started first; each part is stopped once, even when another's stop fails. */
  stop(): Promise<void> {
    this.stopping ??= this.stopAll();
    return this.stopping;
  }

  private async stopAll(): Promise<void> {
    let failure: { error: unknown } | undefined;
    while (this.started.length > 0) {
      const part = this.started.pop() as Part;
      try {
        await this.stopPart(part);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }

  private async stopPart(part: Part): Promise<void> {
    try {
      await part.stop();
      this.logger?.info({ part: part.name }, 'part stopped');
    } catch (error) {
      this.logger?.error({ err: error, part: part.name }, 'part did not stop');
      throw error;
    }
  }
}

export function stopOnSignals({ logger, stop }: { logger: Logger; stop: () => Promise<void> }): { stopping(): boolean } {
  let stopping = false;
  // A library promise nobody awaits (a Redis command flushed by a disconnect) must not take the process down.
  process.on('unhandledRejection', (reason: unknown) => {
    // Commands a Redis or MongoDB client still held when it was closed: expected while shutting down or during an outage.
    if (isDependencyOutage(reason)) {
      logger.warn({ reason: reason.message, error: reason.constructor.name }, 'a Redis or MongoDB command was dropped');
      return;
    }
    logger.fatal({ err: reason }, 'unhandled rejection');
    process.exit(1);
  });
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const forced = setTimeout(() => {
      logger.error({ boundMs: SHUTDOWN_BOUND_MS }, 'shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_BOUND_MS);
    forced.unref();
    stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  // A start-up step cut short by the shutdown fails as it may (StoppingError among others): not a start-up error.
  return { stopping: () => stopping };
}

/**
 * A process's life: `compose` starts its parts on one Lifecycle, SIGTERM/SIGINT stop them in reverse (from the
 * first moment: a signal while it still starts stops what has started). A start-up failure stops what started,
 * then exits 1 with one line.
 */
export async function runProcess({ logger, compose }: { logger: Logger; compose: (lifecycle: Lifecycle) => Promise<void> }): Promise<void> {
  const lifecycle = new Lifecycle(logger);
  const signals = stopOnSignals({ logger, stop: () => lifecycle.stop() });
  try {
    await lifecycle.compose(() => compose(lifecycle));
  } catch (error) {
    if (signals.stopping()) return;
    exitWithStartupError(error, logger);
  }
}

/** Prints a start-up failure as one line (config errors, missing Redis) and exits 1. */
export function exitWithStartupError(error: unknown, logger?: Logger): never {
  const message = error instanceof Error ? error.message : String(error);
  if (logger && !(error instanceof Error && error.name === 'ConfigError')) logger.fatal({ err: error }, 'start-up failed');
  console.error(message);
  process.exit(1);
}
