// Starts the background workers over a Redis connection. Queues and processors are registered here.
import type { Config, Logger } from '@lumibase/server/core';
import { Redis } from 'ioredis';

export interface RunningWorkers {
  stop(): Promise<void>;
}

export async function startWorkers({ logger, redisUrl }: { config: Config; logger: Logger; redisUrl: string }): Promise<RunningWorkers> {
  // BullMQ requires maxRetriesPerRequest: null on the connections its workers block on.
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
  connection.on('error', (error: Error) => logger.warn({ reason: error.message }, 'worker redis connection error'));
  await connection.connect();
  await connection.ping();
  logger.info('workers connected to Redis; no queues registered yet');
  return {
    async stop() {
      await connection.quit();
    },
  };
}
