// Names of the files under the data directory and small fs helpers that make renames durable.
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';

const JOURNAL = /^journal-(\d{8})\.log$/;
const SNAPSHOT = /^snapshot-(\d{8})\.bson$/;

export function journalPath(directory: string, generation: number): string {
  return join(directory, `journal-${String(generation).padStart(8, '0')}.log`);
}

export function snapshotPath(directory: string, generation: number): string {
  return join(directory, `snapshot-${String(generation).padStart(8, '0')}.bson`);
}

export interface DataFiles {
  journals: number[];
  snapshots: number[];
  temporary: string[];
}

/** Generations present on disk, ascending. */
export async function listDataFiles(directory: string): Promise<DataFiles> {
  const files: DataFiles = { journals: [], snapshots: [], temporary: [] };
  for (const name of await readdir(directory)) {
    const journal = JOURNAL.exec(name);
    const snapshot = SNAPSHOT.exec(name);
    if (journal) files.journals.push(Number(journal[1]));
    else if (snapshot) files.snapshots.push(Number(snapshot[1]));
    else if (name.endsWith('.tmp')) files.temporary.push(join(directory, name));
  }
  files.journals.sort((a, b) => a - b);
  files.snapshots.sort((a, b) => a - b);
  return files;
}

/** A file's creation, rename or removal is only durable once its directory is fsynced. */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
