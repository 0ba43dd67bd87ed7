// Bad bytes on one connection close that connection, with a logged reason, and nothing else.
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { type Document, deserialize, serialize } from 'bson';
import fc from 'fast-check';
import { MongoClient } from 'mongodb';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runningAgainstRealMongo } from '../../conformance/test-target.js';
import { type EmbeddedMongo, startEmbeddedMongo } from '../index.js';
import { OP_MSG } from './wire-message.js';

function opMsg(body: Document, requestId = 1): Buffer {
  const bson = serialize(body);
  const frame = Buffer.alloc(16 + 4 + 1 + bson.length);
  frame.writeInt32LE(frame.length, 0);
  frame.writeInt32LE(requestId, 4);
  frame.writeInt32LE(OP_MSG, 12);
  frame.set(bson, 21);
  return frame;
}

function header(length: number, opCode: number): Buffer {
  const frame = Buffer.alloc(16);
  frame.writeInt32LE(length, 0);
  frame.writeInt32LE(7, 4);
  frame.writeInt32LE(opCode, 12);
  return frame;
}

interface Exchange {
  closedByServer: boolean;
  replies: Document[];
}

/**
 * Sends `chunks` (one write each) and collects replies until the server closes, `expectedReplies`
 * have arrived, or the connection stays quiet for `quietMs`.
 */
function exchange(port: number, chunks: Buffer[], { quietMs = 2000, expectedReplies = Number.POSITIVE_INFINITY } = {}): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    const replies: Document[] = [];
    let received = Buffer.alloc(0);
    let timer: NodeJS.Timeout;
    const finish = (closedByServer: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ closedByServer, replies });
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(false), quietMs);
    };
    socket.on('data', (data) => {
      received = Buffer.concat([received, data]);
      while (received.length >= 4 && received.length >= received.readInt32LE(0)) {
        const length = received.readInt32LE(0);
        replies.push(deserialize(received.subarray(21, length)));
        received = received.subarray(length);
      }
      if (replies.length >= expectedReplies) finish(false);
      else arm();
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => {});
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        socket.write(chunk);
        await new Promise((next) => setImmediate(next));
      }
      arm();
    });
  });
}

describe.skipIf(runningAgainstRealMongo)('embedded mongo (embedded only): malformed messages', () => {
  let server: EmbeddedMongo;
  let client: MongoClient;
  const logLines: Document[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    server = await startEmbeddedMongo({ logger: pino({ level: 'warn' }, sink) });
    client = await MongoClient.connect(server.uri);
    await client.db('survivor').collection('c').insertOne({ alive: true });
  });
  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  const loggedReasons = () =>
    logLines.filter((line) => line.msg === 'closing connection: malformed message').map((line) => String(line.reason));

  async function expectClosedWithReason(chunks: Buffer[], reason: RegExp): Promise<void> {
    const before = loggedReasons().length;
    const result = await exchange(server.port, chunks);
    expect(result.closedByServer).toBe(true);
    expect(result.replies).toEqual([]);
    expect(
      loggedReasons()
        .slice(before)
        .some((logged) => reason.test(logged)),
    ).toBe(true);
    // The other connection, and the data, are unaffected.
    expect(await client.db('survivor').collection('c').countDocuments({ alive: true })).toBe(1);
  }

  it('answers a well-formed OP_MSG even when it arrives one byte at a time', async () => {
    const frame = opMsg({ ping: 1, $db: 'admin' });
    const result = await exchange(
      server.port,
      [...frame].map((byte) => Buffer.from([byte])),
      { expectedReplies: 1 },
    );
    expect(result.replies).toEqual([{ ok: 1 }]);
  });

  it('answers several requests sent in one write, in order', async () => {
    const frames = Buffer.concat([
      opMsg({ ping: 1, $db: 'admin' }, 1),
      opMsg({ count: 'c', $db: 'survivor' }, 2),
      opMsg({ nope: 1, $db: 'admin' }, 3),
    ]);
    const result = await exchange(server.port, [frames], { expectedReplies: 3 });
    expect(result.replies).toEqual([{ ok: 1 }, { n: 1, ok: 1 }, expect.objectContaining({ ok: 0, code: 59 })]);
  });

  it('closes a connection whose message length is shorter than a header', async () => {
    await expectClosedWithReason([Buffer.from([5, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8])], /shorter than a header/);
  });

  it('closes a connection announcing a message over maxMessageSizeBytes, before reading it', async () => {
    await expectClosedWithReason([header(48_000_001, OP_MSG)], /exceeds maxMessageSizeBytes/);
  });

  it('closes a connection that sends truncated BSON', async () => {
    const frame = opMsg({ ping: 1, $db: 'admin' });
    frame.writeInt32LE(frame.readInt32LE(21) + 40, 21);
    await expectClosedWithReason([frame], /overruns the message/);
  });

  it('closes a connection that sends invalid BSON', async () => {
    const frame = opMsg({ ping: 1, $db: 'admin' });
    frame[25] = 0x7f; // an element type byte that does not exist
    await expectClosedWithReason([frame], /invalid BSON/);
  });

  it('closes a connection that uses an unknown opcode or OP_COMPRESSED', async () => {
    await expectClosedWithReason([Buffer.concat([header(20, 4242), Buffer.alloc(4)])], /unsupported opcode 4242/);
    await expectClosedWithReason([Buffer.concat([header(25, 2012), Buffer.alloc(9)])], /OP_COMPRESSED/);
  });

  it('answers a command without $db with an error instead of closing', async () => {
    const result = await exchange(server.port, [opMsg({ ping: 1 })], { expectedReplies: 1 });
    expect(result.closedByServer).toBe(false);
    expect(result.replies[0]).toMatchObject({ ok: 0, code: 40571 });
  });

  it('survives arbitrary bytes after a valid length prefix', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 12, maxLength: 200 }), fc.integer({ min: 0, max: 2 }), async (bytes, variant) => {
        const body = Buffer.from(bytes);
        const opCode = [OP_MSG, 2004, 1][variant] as number;
        const frame = Buffer.concat([header(16 + body.length, opCode), body]);
        await exchange(server.port, [frame], { quietMs: 50 });
      }),
      { numRuns: 60 },
    );
    expect(await client.db('survivor').collection('c').countDocuments({ alive: true })).toBe(1);
  });
});
