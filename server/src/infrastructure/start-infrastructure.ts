// Connects what every process needs (MongoDB, Redis), starting embedded defaults for what is not configured.
import mongoose, { type ConnectOptions, type Connection } from 'mongoose';
import { createClient, type RedisClientType } from 'redis';
import type { Config } from '../config.js';
import type { DependencyCheck } from './dependency-check.js';
import type { Logger } from '../logger.js';
import { applyMongooseSettings } from './mongoose-settings.js';
import { watchMongoMonitor, wedgedHeartbeatAfterMs } from './mongo-monitor-watchdog.js';
import { resolveMongo } from './resolve-mongo.js';
import { resolveRedis } from './resolve-redis.js';

export interface Infrastructure {
  mongo: Connection;
  mongoUri: string;
  redis: RedisClientType;
  redisUrl: string;
  dependencies: DependencyCheck[];
  /** Closes the clients, then stops whatever embedded servers were started, in reverse order. */
  stop(): Promise<void>;
}

/** The driver's socket timeout for connecting and for a heartbeat (its default is 30 s), and how often it checks. */
const MONGO_CONNECT_TIMEOUT_MS = 10_000;
const MONGO_HEARTBEAT_FREQUENCY_MS = 10_000;

export class EmbeddedMongoNotAllowedError extends Error {
  constructor(processName: string) {
    super(`${processName} needs MONGODB_URI: the embedded MongoDB belongs to one process (npm start, or npm run db:embedded)`);
    this.name = 'EmbeddedMongoNotAllowedError';
  }
}

export async function startInfrastructure(
  config: Config,
  logger: Logger,
  { embeddedMongo = true, processName = 'this process' }: { embeddedMongo?: boolean; processName?: string } = {},
): Promise<Infrastructure> {
  // Two processes must never open the same embedded data directory.
  if (!config.MONGODB_URI && !embeddedMongo) throw new EmbeddedMongoNotAllowedError(processName);
  const resolvedRedis = await resolveRedis({ url: config.REDIS_URL, dataDir: config.DATA_DIR, logger });
  const resolvedMongo = await resolveMongo({ uri: config.MONGODB_URI, dataDir: config.DATA_DIR, logger });

  // While MongoDB is down a command fails after serverSelectionTimeoutMS (the route answers 503)
  // instead of waiting in mongoose's buffer; the driver reconnects by itself once it is back.
  const mongoOptions: ConnectOptions = {
    dbName: config.MONGODB_DB,
    serverSelectionTimeoutMS: config.MONGODB_SERVER_SELECTION_TIMEOUT_MS,
    connectTimeoutMS: MONGO_CONNECT_TIMEOUT_MS,
    heartbeatFrequencyMS: MONGO_HEARTBEAT_FREQUENCY_MS,
    bufferCommands: false,
  };
  applyMongooseSettings(mongoose);
  const mongo = await mongoose.createConnection(resolvedMongo.uri, mongoOptions).asPromise();
  const watchdog = watchMongoMonitor(mongo, {
    uri: resolvedMongo.uri,
    options: mongoOptions,
    logger,
    wedgedAfterMs: wedgedHeartbeatAfterMs({
      connectTimeoutMS: MONGO_CONNECT_TIMEOUT_MS,
      heartbeatFrequencyMS: MONGO_HEARTBEAT_FREQUENCY_MS,
    }),
  });
  // Commands fail fast while Redis is down (the routes answer 503) instead of waiting in an offline queue.
  const redis: RedisClientType = createClient({ url: resolvedRedis.url, disableOfflineQueue: true });
  // node-redis reconnects by itself; without a listener an 'error' event would crash the process.
  redis.on('error', (error: Error) => logger.warn({ reason: error.message }, 'redis client error'));
  await redis.connect();

  const dependencies: DependencyCheck[] = [
    { name: 'mongo', check: () => mongo.db!.admin().ping() },
    { name: 'redis', check: () => redis.ping() },
  ];

  return {
    mongo,
    mongoUri: resolvedMongo.uri,
    redis,
    redisUrl: resolvedRedis.url,
    dependencies,
    async stop() {
      // quit() waits for a reply that never comes while Redis is down: close at once then.
      if (redis.isReady) await redis.quit().catch(() => redis.destroy());
      else redis.destroy();
      await watchdog.stop();
      await mongo.close();
      await resolvedMongo.stop();
      await resolvedRedis.stop();
    },
  };
}
