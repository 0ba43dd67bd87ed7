// The journal's contract: acknowledged means on disk, concurrent appends share an fsync, a failure poisons it.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from './journal.js';
import { journalPath } from './journal-files.js';
import { decodeRecords, encodeRecords } from './record-codec.js';

const directories: string[] = [];
const record = (n: number) => encodeRecords([{ op: 'put', db: 'd', coll: 'c', doc: { _id: n } }]);

async function freshJournal(): Promise<{ journal: Journal; directory: string }> {
  const directory = await mkdtemp(join(tmpdir(), 'lumibase-journal-'));
  directories.push(directory);
  return { journal: new Journal(directory, 1, 0), directory };
}

describe('journal', () => {
  afterEach(async () => {
    for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
  });

  it('has every record on disk, in append order, once its append resolves', async () => {
    const { journal, directory } = await freshJournal();
    for (let n = 0; n < 5; n++) await journal.append(record(n));
    const { documents } = decodeRecords(await readFile(journalPath(directory, 1)));
    expect(documents.map((change) => change.doc._id)).toEqual([0, 1, 2, 3, 4]);
    await journal.close();
  });

  it('commits appends that arrive during a flush together (group commit)', async () => {
    const { journal } = await freshJournal();
    // The first append starts a flush at once; the 49 queued behind it share the next fsync.
    await Promise.all(Array.from({ length: 50 }, (_, n) => journal.append(record(n))));
    expect(journal.stats()).toMatchObject({ commits: 50, flushes: 2, maxBatch: 49 });
    await journal.close();
  });

  it('sends appends after a rotation to the next file, after everything before it', async () => {
    const { journal, directory } = await freshJournal();
    const before = journal.append(record(1));
    const previousDone = journal.rotate(2);
    const after = journal.append(record(2));
    await Promise.all([before, after, previousDone]);
    expect(decodeRecords(await readFile(journalPath(directory, 1))).documents.map((change) => change.doc._id)).toEqual([1]);
    expect(decodeRecords(await readFile(journalPath(directory, 2))).documents.map((change) => change.doc._id)).toEqual([2]);
    expect(journal.size).toBe(record(2)[0]?.length);
    await journal.close();
  });

  it('rejects the failed write and every later one once a write fails', async () => {
    const journal = new Journal(join(tmpdir(), 'lumibase-journal-missing-directory', 'nested'), 1, 0);
    await expect(journal.append(record(1))).rejects.toThrow(/ENOENT/);
    await expect(journal.append(record(2))).rejects.toThrow(/ENOENT/);
  });
});
