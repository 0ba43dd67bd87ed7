// On-disk framing shared by journal and snapshots: [length][crc32][payload], payload = BSON change docs.
import { crc32 } from 'node:zlib';
import { type Document, deserialize, serialize } from 'bson';

const FRAME_HEADER_BYTES = 8;
// Keeps every record far below bson's serialisation buffer and bounds what one torn write can lose.
const MAX_RECORD_PAYLOAD_BYTES = 4 * 1024 * 1024;
const DESERIALIZE_OPTIONS = { promoteLongs: true, promoteValues: true, bsonRegExp: false } as const;

/** Encodes documents (journal changes, snapshot entries) as framed records of at most ~4 MB each. */
export function encodeRecords(documents: Document[]): Buffer[] {
  const records: Buffer[] = [];
  let parts: Uint8Array[] = [];
  let size = 0;
  for (const document of documents) {
    const bytes = serialize(document);
    if (size > 0 && size + bytes.length > MAX_RECORD_PAYLOAD_BYTES) {
      records.push(frame(parts, size));
      parts = [];
      size = 0;
    }
    parts.push(bytes);
    size += bytes.length;
  }
  if (size > 0) records.push(frame(parts, size));
  return records;
}

function frame(parts: Uint8Array[], size: number): Buffer {
  const payload = Buffer.concat(parts, size);
  const record = Buffer.allocUnsafe(FRAME_HEADER_BYTES + size);
  record.writeUInt32LE(size, 0);
  record.writeUInt32LE(crc32(payload), 4);
  payload.copy(record, FRAME_HEADER_BYTES);
  return record;
}

export interface DecodedRecords {
  documents: Document[];
  /** Bytes up to the end of the last intact record; anything after is a torn or corrupt tail. */
  validBytes: number;
}

/** Decodes intact records from the start of `buffer`, stopping at the first torn or corrupt one. */
export function decodeRecords(buffer: Buffer): DecodedRecords {
  const documents: Document[] = [];
  let offset = 0;
  while (offset + FRAME_HEADER_BYTES <= buffer.length) {
    const size = buffer.readUInt32LE(offset);
    const end = offset + FRAME_HEADER_BYTES + size;
    if (size === 0 || end > buffer.length) break;
    const payload = buffer.subarray(offset + FRAME_HEADER_BYTES, end);
    if (crc32(payload) !== buffer.readUInt32LE(offset + 4)) break;
    const decoded = decodePayload(payload);
    if (!decoded) break;
    documents.push(...decoded);
    offset = end;
  }
  return { documents, validBytes: offset };
}

function decodePayload(payload: Buffer): Document[] | undefined {
  const documents: Document[] = [];
  let offset = 0;
  try {
    while (offset < payload.length) {
      const size = payload.readInt32LE(offset);
      if (size < 5 || offset + size > payload.length) return undefined;
      documents.push(deserialize(payload.subarray(offset, offset + size), DESERIALIZE_OPTIONS));
      offset += size;
    }
  } catch {
    return undefined;
  }
  return documents;
}
