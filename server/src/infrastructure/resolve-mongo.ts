// Finds the MongoDB to use: MONGODB_URI, else the embedded wire-compatible server persisting under DATA_DIR/mongo.
import { resolve } from 'node:path';
import type { Logger } from '../logger.js';
import { startEmbeddedMongo } from '@lumibase/embedded-mongo';

export interface ResolvedMongo {
  uri: string;
  source: 'configured' | 'embedded';
  stop(): Promise<void>;
}

export async function resolveMongo({
  uri,
  dataDir,
  logger,
}: {
  uri: string | undefined;
  dataDir: string;
  logger: Logger;
}): Promise<ResolvedMongo> {
  if (uri) return { uri, source: 'configured', stop: async () => {} };
  const dbPath = resolve(dataDir, 'mongo');
  const embedded = await startEmbeddedMongo({ dbPath, logger: logger.child({ component: 'embedded-mongo' }) });
  logger.info({ port: embedded.port, dbPath }, 'started embedded MongoDB-wire server');
  return { uri: embedded.uri, source: 'embedded', stop: () => embedded.stop() };
}
