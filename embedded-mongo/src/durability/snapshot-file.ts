// Snapshots: the whole catalog as replayable changes, written to a temp file and renamed when complete.
import { open, readFile, rename } from 'node:fs/promises';
import type { Document } from 'bson';
import type { Catalog } from '../engine/catalog.js';
import type { ChangeOp } from '../engine/change-op.js';
import type { IndexSpec } from '../engine/index-spec.js';
import { snapshotPath, syncDirectory } from './journal-files.js';
import { decodeRecords, encodeRecords } from './record-codec.js';

const DOCUMENTS_PER_CHUNK = 1000;

interface CollectionImage {
  create: ChangeOp;
  documents: Document[];
  indexes: IndexSpec[];
}

/**
 * Captures the catalog synchronously. Stored documents are immutable, so holding references is a
 * consistent point-in-time image even while later commands replace them.
 */
export function captureCatalog(catalog: Catalog): CollectionImage[] {
  const images: CollectionImage[] = [];
  for (const db of catalog.databaseNames()) {
    for (const collection of catalog.collections(db)) {
      images.push({
        create: { op: 'createCollection', db, coll: collection.name, options: collection.options, uuid: collection.uuid },
        documents: [...collection.documents.values()],
        indexes: collection.indexSpecs().filter((spec) => spec.name !== '_id_'),
      });
    }
  }
  return images;
}

/** Writes `snapshot-<generation>.bson` atomically; yields between chunks so the server keeps serving. */
export async function writeSnapshot(directory: string, generation: number, images: CollectionImage[]): Promise<void> {
  const finalPath = snapshotPath(directory, generation);
  const temporaryPath = `${finalPath}.tmp`;
  const handle = await open(temporaryPath, 'w');
  let documentCount = 0;
  try {
    await handle.write(encodeRecords([{ op: 'snapshotBegin', generation }])[0] as Buffer);
    for (const image of images) {
      const { db, coll } = image.create as { db: string; coll: string };
      await writeAll(handle, encodeRecords([image.create]));
      for (let start = 0; start < image.documents.length; start += DOCUMENTS_PER_CHUNK) {
        const chunk = image.documents.slice(start, start + DOCUMENTS_PER_CHUNK).map((doc) => ({ op: 'put', db, coll, doc }));
        await writeAll(handle, encodeRecords(chunk));
        documentCount += chunk.length;
        await new Promise((resolve) => setImmediate(resolve));
      }
      // Indexes after documents: each is built once instead of checked on every insert.
      await writeAll(handle, encodeRecords(image.indexes.map((spec) => ({ op: 'createIndex', db, coll, spec }))));
    }
    await handle.write(encodeRecords([{ op: 'snapshotEnd', documents: documentCount }])[0] as Buffer);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await rename(temporaryPath, finalPath);
  await syncDirectory(directory);
}

async function writeAll(handle: Awaited<ReturnType<typeof open>>, buffers: Buffer[]): Promise<void> {
  for (const buffer of buffers) {
    let offset = 0;
    while (offset < buffer.length) offset += (await handle.write(buffer, offset)).bytesWritten;
  }
}

/** The snapshot's changes, or undefined if the file is incomplete or damaged. */
export async function readSnapshot(directory: string, generation: number): Promise<ChangeOp[] | undefined> {
  const buffer = await readFile(snapshotPath(directory, generation));
  const { documents, validBytes } = decodeRecords(buffer);
  const first = documents[0];
  const last = documents[documents.length - 1];
  if (validBytes !== buffer.length || first?.op !== 'snapshotBegin' || last?.op !== 'snapshotEnd') return undefined;
  return documents.slice(1, -1) as ChangeOp[];
}
