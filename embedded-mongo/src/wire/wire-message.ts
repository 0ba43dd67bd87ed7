// Decodes MongoDB wire frames (OP_MSG, legacy OP_QUERY) and encodes the replies the driver expects.
import { type Document, deserialize, serialize } from 'bson';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;
export const HEADER_BYTES = 16;

const CHECKSUM_PRESENT = 1 << 0;
const MORE_TO_COME = 1 << 1;
// Bits 0-15 are "required": a receiver must reject a message carrying one it does not know.
const KNOWN_REQUIRED_BITS = CHECKSUM_PRESENT | MORE_TO_COME;

/** A frame we cannot parse; the connection that sent it is closed, nothing else is affected. */
export class MalformedMessageError extends Error {
  override readonly name = 'MalformedMessageError';
}

export interface WireRequest {
  requestId: number;
  opCode: typeof OP_MSG | typeof OP_QUERY;
  /** The command document, with OP_MSG document sequences folded in as arrays. */
  command: Document;
  /** Database from `$db` (OP_MSG) or the `<db>.$cmd` collection name (OP_QUERY). */
  dbName: string;
  /** The client asked for no reply (unacknowledged write). */
  moreToCome: boolean;
}

// Values are promoted to JS types so mingo compares them natively (see README: deviations).
const DESERIALIZE_OPTIONS = { promoteLongs: true, promoteValues: true, bsonRegExp: false } as const;

function readDocument(frame: Buffer, offset: number, end: number): { document: Document; next: number } {
  if (offset + 5 > end) throw new MalformedMessageError('truncated BSON document');
  const size = frame.readInt32LE(offset);
  if (size < 5 || offset + size > end) throw new MalformedMessageError(`BSON document length ${size} overruns the message`);
  try {
    return { document: deserialize(frame.subarray(offset, offset + size), DESERIALIZE_OPTIONS), next: offset + size };
  } catch (error) {
    throw new MalformedMessageError(`invalid BSON: ${(error as Error).message}`);
  }
}

function readCString(frame: Buffer, offset: number, end: number): { value: string; next: number } {
  const zero = frame.indexOf(0, offset);
  if (zero < 0 || zero >= end) throw new MalformedMessageError('unterminated cstring');
  return { value: frame.toString('utf8', offset, zero), next: zero + 1 };
}

function decodeOpMsg(frame: Buffer, requestId: number): WireRequest {
  if (frame.length < HEADER_BYTES + 5) throw new MalformedMessageError('OP_MSG too short');
  const flags = frame.readUInt32LE(HEADER_BYTES);
  const unknownRequired = flags & 0xffff & ~KNOWN_REQUIRED_BITS;
  if (unknownRequired) throw new MalformedMessageError(`OP_MSG has unknown required flag bits ${unknownRequired}`);
  const end = flags & CHECKSUM_PRESENT ? frame.length - 4 : frame.length;
  let offset = HEADER_BYTES + 4;
  let body: Document | undefined;
  const sequences: [string, Document[]][] = [];
  while (offset < end) {
    const kind = frame[offset];
    offset += 1;
    if (kind === 0) {
      if (body) throw new MalformedMessageError('OP_MSG has more than one body section');
      const read = readDocument(frame, offset, end);
      body = read.document;
      offset = read.next;
    } else if (kind === 1) {
      if (offset + 4 > end) throw new MalformedMessageError('truncated document sequence');
      const sectionEnd = offset + frame.readInt32LE(offset);
      if (sectionEnd > end || sectionEnd <= offset + 4) throw new MalformedMessageError('document sequence length overruns the message');
      const name = readCString(frame, offset + 4, sectionEnd);
      const documents: Document[] = [];
      let cursor = name.next;
      while (cursor < sectionEnd) {
        const read = readDocument(frame, cursor, sectionEnd);
        documents.push(read.document);
        cursor = read.next;
      }
      sequences.push([name.value, documents]);
      offset = sectionEnd;
    } else {
      throw new MalformedMessageError(`OP_MSG has unknown section kind ${kind}`);
    }
  }
  if (!body) throw new MalformedMessageError('OP_MSG has no body section');
  for (const [name, documents] of sequences) body[name] = documents;
  // A missing $db is the command's error, not the connection's: the dispatcher answers it.
  const dbName = typeof body.$db === 'string' ? body.$db : '';
  return { requestId, opCode: OP_MSG, command: body, dbName, moreToCome: (flags & MORE_TO_COME) !== 0 };
}

function decodeOpQuery(frame: Buffer, requestId: number): WireRequest {
  // flags(4) fullCollectionName(cstring) numberToSkip(4) numberToReturn(4) query [fieldSelector]
  const collection = readCString(frame, HEADER_BYTES + 4, frame.length);
  const { document } = readDocument(frame, collection.next + 8, frame.length);
  const [dbName, suffix] = splitNamespace(collection.value);
  if (suffix !== '$cmd') throw new MalformedMessageError(`legacy OP_QUERY on ${collection.value} is not supported`);
  // Drivers wrap commands sent with read preferences as { $query: {...} }.
  const command = (document.$query as Document | undefined) ?? document;
  return { requestId, opCode: OP_QUERY, command, dbName, moreToCome: false };
}

function splitNamespace(namespace: string): [string, string] {
  const dot = namespace.indexOf('.');
  return dot < 0 ? [namespace, ''] : [namespace.slice(0, dot), namespace.slice(dot + 1)];
}

/** Decodes one complete frame (its length prefix already validated by the reader). */
export function decodeRequest(frame: Buffer): WireRequest {
  const requestId = frame.readInt32LE(4);
  const opCode = frame.readInt32LE(12);
  if (opCode === OP_MSG) return decodeOpMsg(frame, requestId);
  if (opCode === OP_QUERY) return decodeOpQuery(frame, requestId);
  if (opCode === OP_COMPRESSED) throw new MalformedMessageError('OP_COMPRESSED sent although no compressor was advertised');
  throw new MalformedMessageError(`unsupported opcode ${opCode}`);
}

let nextResponseId = 1;

function header(length: number, responseTo: number, opCode: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  buffer.writeInt32LE(length, 0);
  buffer.writeInt32LE(nextResponseId++ & 0x7fffffff, 4);
  buffer.writeInt32LE(responseTo, 8);
  buffer.writeInt32LE(opCode, 12);
  return buffer;
}

/** Encodes `reply` in the same protocol the request used. */
export function encodeReply(request: Pick<WireRequest, 'opCode' | 'requestId'>, reply: Document): Buffer {
  const body = serialize(reply);
  if (request.opCode === OP_MSG) {
    const frame = header(HEADER_BYTES + 5 + body.length, request.requestId, OP_MSG);
    frame.writeUInt32LE(0, HEADER_BYTES);
    frame[HEADER_BYTES + 4] = 0;
    frame.set(body, HEADER_BYTES + 5);
    return frame;
  }
  // OP_REPLY: responseFlags(4) cursorId(8) startingFrom(4) numberReturned(4) documents
  const frame = header(HEADER_BYTES + 20 + body.length, request.requestId, OP_REPLY);
  frame.fill(0, HEADER_BYTES, HEADER_BYTES + 16);
  frame.writeInt32LE(1, HEADER_BYTES + 16);
  frame.set(body, HEADER_BYTES + 20);
  return frame;
}
