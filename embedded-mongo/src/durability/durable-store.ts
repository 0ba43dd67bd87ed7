// Durable storage: recovery on open, journaled commits, size-triggered snapshots that compact the journal.
import { mkdir, rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { ChangeCommitter } from '../commands/command-dispatcher.js';
import type { Catalog } from '../engine/catalog.js';
import { acquireDirectoryLock } from './directory-lock.js';
import { Journal } from './journal.js';
import { journalPath, listDataFiles, snapshotPath } from './journal-files.js';
import { encodeRecords } from './record-codec.js';
import { recoverCatalog } from './recover-catalog.js';
import { captureCatalog, writeSnapshot } from './snapshot-file.js';

const DEFAULT_JOURNAL_MAX_BYTES = 64 * 1024 * 1024;

export interface DurableStoreOptions {
  directory: string;
  journalMaxBytes?: number;
  logger: Logger;
}

export interface DurableStore {
  catalog: Catalog;
  committer: ChangeCommitter;
  stats(): Record<string, unknown>;
  close(): Promise<void>;
}

export async function openDurableStore(options: DurableStoreOptions): Promise<DurableStore> {
  const { directory, logger } = options;
  const journalMaxBytes = options.journalMaxBytes ?? DEFAULT_JOURNAL_MAX_BYTES;
  await mkdir(directory, { recursive: true });
  const releaseLock = await acquireDirectoryLock(directory);
  let recovered: Awaited<ReturnType<typeof recoverCatalog>>;
  try {
    recovered = await recoverCatalog(directory, logger);
  } catch (error) {
    await releaseLock();
    throw error;
  }
  const { catalog } = recovered;
  const journal = new Journal(directory, recovered.generation, recovered.journalBytes);
  let compaction: Promise<void> | undefined;
  let snapshots = 0;
  logger.info({ directory, generation: recovered.generation }, 'embedded mongo recovered');

  // Must run synchronously between commands: the capture and the rotation mark the same instant.
  function compact(): Promise<void> {
    const generation = journal.generation + 1;
    const image = captureCatalog(catalog);
    const previousFileDone = journal.rotate(generation);
    compaction = (async () => {
      await writeSnapshot(directory, generation, image);
      snapshots += 1;
      await previousFileDone;
      const files = await listDataFiles(directory);
      for (const old of files.journals.filter((g) => g < generation)) await rm(journalPath(directory, old), { force: true });
      for (const old of files.snapshots.filter((g) => g < generation)) await rm(snapshotPath(directory, old), { force: true });
    })()
      .catch((error) => logger.error({ err: error, generation }, 'snapshot failed; the journal still holds every change'))
      .finally(() => {
        compaction = undefined;
      });
    return compaction;
  }

  const committer: ChangeCommitter = {
    commit(changes) {
      const durable = journal.append(encodeRecords(changes));
      if (!compaction && journal.size > journalMaxBytes) void compact();
      return durable;
    },
  };

  return {
    catalog,
    committer,
    stats: () => ({
      durable: true,
      directory,
      generation: journal.generation,
      journalBytes: journal.size,
      snapshots,
      journal: journal.stats(),
    }),
    async close() {
      await compaction;
      await journal.drain();
      // A clean stop leaves a snapshot and an empty journal, so the next start replays nothing.
      if (journal.size > 0) await compact();
      await journal.close();
      await releaseLock();
    },
  };
}
