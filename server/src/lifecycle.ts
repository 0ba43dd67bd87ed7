// Graceful shutdown: on SIGTERM/SIGINT run the stop steps once, in order, within a bound, then exit.
import { isDependencyOutage } from './infrastructure/dependency-outage.js';
import type { Logger } from './logger.js';

const SHUTDOWN_BOUND_MS = 15_000;

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
  // A start-up step cut short by the shutdown fails as it may: that is not a start-up error.
  return { stopping: () => stopping };
}

/** Prints a start-up failure as one line (config errors, missing Redis) and exits 1. */
export function exitWithStartupError(error: unknown, logger?: Logger): never {
  const message = error instanceof Error ? error.message : String(error);
  if (logger && !(error instanceof Error && error.name === 'ConfigError')) logger.fatal({ err: error }, 'start-up failed');
  console.error(message);
  process.exit(1);
}
