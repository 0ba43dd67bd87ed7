// Startup recovery: newest complete snapshot, then every later journal; a torn last record is dropped.
import { readFile, rm, truncate } from 'node:fs/promises';
import type { Logger } from 'pino';
import { Catalog } from '../engine/catalog.js';
import type { ChangeOp } from '../engine/change-op.js';
import { journalPath, listDataFiles, snapshotPath } from './journal-files.js';
import { decodeRecords } from './record-codec.js';
import { readSnapshot } from './snapshot-file.js';

export interface RecoveredState {
  catalog: Catalog;
  /** The generation new journal records go to. */
  generation: number;
  /** Bytes already in that generation's journal. */
  journalBytes: number;
}

export class CorruptJournalError extends Error {
  override readonly name = 'CorruptJournalError';
}

export async function recoverCatalog(directory: string, logger: Logger): Promise<RecoveredState> {
  const files = await listDataFiles(directory);
  const catalog = new Catalog();
  let base = 0;
  for (const generation of [...files.snapshots].reverse()) {
    const changes = await readSnapshot(directory, generation);
    if (changes) {
      for (const change of changes) catalog.replay(change);
      base = generation;
      break;
    }
    // Only a compaction interrupted before its rename leaves this; older files still cover it.
    logger.warn({ generation }, 'ignoring incomplete snapshot');
  }

  const journals = files.journals.filter((generation) => generation >= base);
  let journalBytes = 0;
  for (const [position, generation] of journals.entries()) {
    const path = journalPath(directory, generation);
    const buffer = await readFile(path);
    const { documents, validBytes } = decodeRecords(buffer);
    for (const change of documents) catalog.replay(change as ChangeOp);
    journalBytes = validBytes;
    if (validBytes === buffer.length) continue;
    // The flush loop finishes a file before starting the next, so only the newest can be torn.
    if (position !== journals.length - 1) {
      throw new CorruptJournalError(`journal ${path} is damaged at byte ${validBytes} but is not the newest journal; refusing to start`);
    }
    logger.warn({ path, droppedBytes: buffer.length - validBytes }, 'dropping torn journal tail (a write that was never acknowledged)');
    await truncate(path, validBytes);
  }

  // Files a finished snapshot made obsolete, and leftovers of an interrupted one.
  for (const generation of files.journals.filter((g) => g < base)) await rm(journalPath(directory, generation), { force: true });
  for (const generation of files.snapshots.filter((g) => g < base)) await rm(snapshotPath(directory, generation), { force: true });
  for (const path of files.temporary) await rm(path, { force: true });

  catalog.drainChanges();
  const generation = journals[journals.length - 1] ?? Math.max(base, 1);
  return { catalog, generation, journalBytes: generation === journals[journals.length - 1] ? journalBytes : 0 };
}
