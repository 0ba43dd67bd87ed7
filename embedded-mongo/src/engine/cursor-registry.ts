// Open cursors: the rest of a result held by reference and handed out batch by batch via getMore.
import { calculateObjectSize, type Document, Long } from 'bson';
import { CommandError } from './command-error.js';

export const DEFAULT_BATCH_SIZE = 101;
// mongod caps a batch at 16 MB of documents; one oversized document still goes out alone.
const MAX_BATCH_BYTES = 16 * 1024 * 1024;
const IDLE_TIMEOUT_MS = 10 * 60 * 1000;

interface OpenCursor {
  namespace: string;
  documents: Document[];
  position: number;
  lastUsed: number;
}

export class CursorRegistry {
  private readonly cursors = new Map<bigint, OpenCursor>();
  private nextId = BigInt(Math.floor(Math.random() * 2 ** 40)) + 1n;

  get size(): number {
    return this.cursors.size;
  }

  /** Builds a `{ cursor: { firstBatch, id, ns } }` reply, keeping a cursor open if documents remain. */
  open(namespace: string, documents: Document[], batchSize = DEFAULT_BATCH_SIZE, singleBatch = false): Document {
    const batch = takeBatch(documents, 0, batchSize);
    let id = 0n;
    if (!singleBatch && batch.length < documents.length) {
      id = this.nextId++;
      this.cursors.set(id, { namespace, documents, position: batch.length, lastUsed: Date.now() });
    }
    return { cursor: { firstBatch: batch, id: id === 0n ? Long.ZERO : Long.fromBigInt(id), ns: namespace }, ok: 1 };
  }

  getMore(rawId: unknown, namespace: string, batchSize?: number): Document {
    const id = toBigInt(rawId);
    const cursor = this.cursors.get(id);
    if (!cursor) throw new CommandError('CursorNotFound', `cursor id ${id} not found`);
    if (cursor.namespace !== namespace) {
      throw new CommandError('BadValue', `Requested getMore on namespace '${namespace}', but cursor belongs to '${cursor.namespace}'`);
    }
    const batch = takeBatch(cursor.documents, cursor.position, batchSize && batchSize > 0 ? batchSize : Number.MAX_SAFE_INTEGER);
    cursor.position += batch.length;
    cursor.lastUsed = Date.now();
    const exhausted = cursor.position >= cursor.documents.length;
    if (exhausted) this.cursors.delete(id);
    return { cursor: { nextBatch: batch, id: Long.fromBigInt(exhausted ? 0n : id), ns: namespace }, ok: 1 };
  }

  kill(ids: unknown[]): Document {
    const killed: Long[] = [];
    const notFound: Long[] = [];
    for (const raw of ids) {
      const id = toBigInt(raw);
      (this.cursors.delete(id) ? killed : notFound).push(Long.fromBigInt(id));
    }
    return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 };
  }

  /** Drops cursors idle longer than mongod's default cursor timeout. */
  sweep(now = Date.now()): void {
    for (const [id, cursor] of this.cursors) if (now - cursor.lastUsed > IDLE_TIMEOUT_MS) this.cursors.delete(id);
  }
}

function toBigInt(value: unknown): bigint {
  if (value instanceof Long) return value.toBigInt();
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (typeof value === 'bigint') return value;
  throw new CommandError('TypeMismatch', 'cursor id must be a 64-bit integer');
}

function takeBatch(documents: Document[], start: number, batchSize: number): Document[] {
  const end = Math.min(documents.length, start + batchSize);
  if (end - start <= 1) return documents.slice(start, end);
  let bytes = 0;
  let position = start;
  while (position < end) {
    bytes += calculateObjectSize(documents[position] as Document);
    if (bytes > MAX_BATCH_BYTES && position > start) break;
    position += 1;
  }
  return documents.slice(start, position);
}
