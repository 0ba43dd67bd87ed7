// The MongoDB driver's server monitor can wedge. Seen with mongodb 6.20 in outage/keyed-retry-restart (about 1 run in
// 4): MongoDB died while commands were in flight, the monitor sent its next heartbeat on its own connection just as that
// connection's peer was closing it, and the heartbeat never settled — no success, no failure, no socket timeout. The
// server then stays `Unknown`, every command fails server selection, and the process answers 503 for good although
// MongoDB is back. A heartbeat settles within its own limits by design (the socket timeout, plus the await time of a
// streaming one), so one outstanding well past them is that wedge: the watchdog then opens the connection again, in place
// (the models keep their connection), and says so in the log.
import type { Connection, ConnectOptions } from 'mongoose';
import type { Logger } from '../logger.js';
import { PeriodicTask } from './periodic-task.js';

export interface MongoMonitorWatchdogOptions {
  uri: string;
  /** The options the connection was opened with: it is opened again with the same. */
  options: ConnectOptions;
  logger: Logger;
  /** How long a heartbeat may be outstanding before it counts as wedged. */
  wedgedAfterMs: number;
  checkEveryMs?: number;
}

export interface MongoMonitorWatchdog {
  /** How many times the connection was opened again. */
  reopened(): number;
  stop(): Promise<void>;
}

const HEARTBEAT_STARTED = 'serverHeartbeatStarted';
const HEARTBEAT_SETTLED = ['serverHeartbeatSucceeded', 'serverHeartbeatFailed'] as const;

/** A heartbeat is outstanding by its socket timeout and, when streamed, its await time: past both, it is wedged. */
export function wedgedHeartbeatAfterMs({
  connectTimeoutMS,
  heartbeatFrequencyMS,
}: {
  connectTimeoutMS: number;
  heartbeatFrequencyMS: number;
}) {
  return connectTimeoutMS + heartbeatFrequencyMS + 5_000;
}

export function watchMongoMonitor(
  connection: Connection,
  { uri, options, logger, wedgedAfterMs, checkEveryMs = 2_000 }: MongoMonitorWatchdogOptions,
): MongoMonitorWatchdog {
  let outstandingSince: number | undefined;
  let reopened = 0;
  let stopped = false;

  const listen = () => {
    const client = connection.getClient();
    client.on(HEARTBEAT_STARTED, () => {
      outstandingSince ??= Date.now();
    });
    for (const settled of HEARTBEAT_SETTLED) {
      client.on(settled, () => {
        outstandingSince = undefined;
      });
    }
  };
  listen();

  const task = new PeriodicTask(
    async () => {
      if (stopped || outstandingSince === undefined) return;
      const outstandingMs = Date.now() - outstandingSince;
      if (outstandingMs < wedgedAfterMs) return;
      logger.warn({ outstandingMs }, 'MongoDB driver monitor wedged (a heartbeat never settled): opening the connection again');
      // Forced: a gentle close would wait on the wedged client. Mongoose then refuses every command on the connection
      // ("Connection was force closed") until that mark is lifted, which opening it again does not do by itself.
      await connection.close(true);
      if (stopped) return;
      (connection as Connection & { $wasForceClosed?: boolean }).$wasForceClosed = false;
      // While MongoDB is still down this rejects after server selection; the next tick tries again.
      await connection.openUri(uri, options);
      outstandingSince = undefined;
      reopened++;
      listen();
      logger.info({ reopened }, 'MongoDB connection opened again after a wedged monitor');
    },
    (error) => logger.warn({ reason: (error as Error).message }, 'opening the MongoDB connection again failed; retrying'),
  );
  task.start(checkEveryMs);

  return {
    reopened: () => reopened,
    async stop() {
      stopped = true;
      await task.stop();
    },
  };
}
