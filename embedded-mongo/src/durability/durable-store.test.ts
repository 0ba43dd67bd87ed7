// Durability in-process: restart recovery, compaction, torn tails, group commit and the directory lock.
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Binary, MongoClient } from 'mongodb';
import { afterEach, describe, expect, it } from 'vitest';
import { runningAgainstRealMongo } from '../../conformance/test-target.js';
import { startEmbeddedMongo } from '../index.js';
import { type EmbeddedServerOptions, startEmbeddedServer } from '../start-embedded-server.js';
import { journalPath } from './journal-files.js';

const directories: string[] = [];

async function freshDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'lumibase-embedded-'));
  directories.push(directory);
  return directory;
}

/** Starts a server on `dbPath`, runs `use` with a connected client, then stops both. */
async function withServer<T>(options: EmbeddedServerOptions, use: (client: MongoClient) => Promise<T>): Promise<T> {
  const server = await startEmbeddedServer(options);
  const client = await MongoClient.connect(server.uri);
  try {
    return await use(client);
  } finally {
    await client.close();
    await server.stop();
  }
}

describe.skipIf(runningAgainstRealMongo)('durable storage (embedded only)', () => {
  afterEach(async () => {
    for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
  });

  it('keeps documents, collections and indexes across a restart', async () => {
    const dbPath = await freshDirectory();
    await withServer({ dbPath }, async (client) => {
      const users = client.db('app').collection('users');
      await users.createIndex({ email: 1 }, { unique: true });
      await users.createIndex({ site: 1, createdAt: -1 });
      await users.insertMany([
        { email: 'a', site: 's' },
        { email: 'b', site: 's' },
      ]);
      await users.updateOne({ email: 'a' }, { $set: { name: 'Ada' } });
      await users.deleteOne({ email: 'b' });
      await client.db('app').createCollection('empty');
      await client.db('gone').collection('x').insertOne({});
      await client.db('gone').dropDatabase();
    });
    await withServer({ dbPath }, async (client) => {
      const users = client.db('app').collection('users');
      expect(await users.find({}, { projection: { _id: 0 } }).toArray()).toEqual([{ email: 'a', site: 's', name: 'Ada' }]);
      expect((await users.listIndexes().toArray()).map((index) => [index.name, index.unique ?? false])).toEqual([
        ['_id_', false],
        ['email_1', true],
        ['site_1_createdAt_-1', false],
      ]);
      expect(await users.insertOne({ email: 'a' }).catch((error: { code: number }) => error.code)).toBe(11000);
      const collections = (await client.db('app').listCollections({}, { nameOnly: true }).toArray()).map((entry) => entry.name).sort();
      expect(collections).toEqual(['empty', 'users']);
      expect((await client.db('admin').admin().listDatabases()).databases.map((entry) => entry.name)).not.toContain('gone');
    });
  });

  it('keeps each BinData subtype through the journal and the snapshot', async () => {
    const dbPath = await freshDirectory();
    const { encodeRecords } = await import('./record-codec.js');
    // A journal as a crash would leave it (no snapshot yet), holding a user-defined subtype.
    await writeFile(
      journalPath(dbPath, 1),
      Buffer.concat(encodeRecords([{ op: 'put', db: 'app', coll: 'bins', doc: { _id: 1, buf: new Binary(Buffer.from('hi'), 128) } }])),
    );
    await withServer({ dbPath }, async (client) => {
      const bins = client.db('app').collection<{ _id: number; buf: Binary }>('bins');
      expect((await bins.findOne({ _id: 1 }))?.buf.sub_type).toBe(128);
      await bins.updateOne({ _id: 1 }, { $set: { buf: new Binary(Buffer.from('hi'), 0) } });
      await bins.insertOne({ _id: 2, buf: new Binary(Buffer.from('uuid-bytes-16...'), 4) });
    });
    // The clean stop wrote a snapshot; the restart reads it.
    await withServer({ dbPath }, async (client) => {
      const bins = client.db('app').collection<{ _id: number; buf: Binary }>('bins');
      const subtypes = (await bins.find({}).sort({ _id: 1 }).toArray()).map((doc) => doc.buf.sub_type);
      expect(subtypes).toEqual([0, 4]);
    });
  });

  it('compacts the journal into snapshots while writes continue, without losing any', async () => {
    const dbPath = await freshDirectory();
    await withServer({ dbPath, journalMaxBytes: 16 * 1024 }, async (client) => {
      const docs = client.db('app').collection<{ _id: number; n: number; pad: string }>('docs');
      await docs.createIndex({ n: 1 }, { unique: true });
      for (let round = 0; round < 10; round++) {
        await Promise.all(
          Array.from({ length: 30 }, (_, i) => docs.insertOne({ _id: round * 30 + i, n: round * 30 + i, pad: 'p'.repeat(200) })),
        );
        await docs.updateMany({ _id: { $lt: round * 10 } }, { $inc: { n: 1000 } });
      }
      const status = await client.db('admin').command({ serverStatus: 1 });
      expect(status.embedded.storage.snapshots).toBeGreaterThan(2);
    });
    const files = await readdir(dbPath);
    expect(files.filter((name) => name.startsWith('journal-')).length).toBeLessThanOrEqual(1);
    expect(files.filter((name) => name.startsWith('snapshot-'))).toHaveLength(1);
    await withServer({ dbPath }, async (client) => {
      const docs = client.db('app').collection('docs');
      expect(await docs.countDocuments()).toBe(300);
      expect(await docs.countDocuments({ n: { $gte: 1000 } })).toBe(90);
      expect((await docs.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_', 'n_1']);
    });
  });

  it('drops a torn last journal record on recovery and keeps appending after it', async () => {
    const dbPath = await freshDirectory();
    await withServer({ dbPath }, async (client) => {
      await client
        .db('app')
        .collection('docs')
        .insertMany([{ _id: 1 }, { _id: 2 }] as never[]);
    });
    // The clean stop left a snapshot; add the journal a crash mid-append would leave behind.
    const files = await readdir(dbPath);
    const snapshotGeneration = Number(/snapshot-(\d+)/.exec(files.join(' '))?.[1]);
    const { encodeRecords } = await import('./record-codec.js');
    const whole = Buffer.concat(encodeRecords([{ op: 'put', db: 'app', coll: 'docs', doc: { _id: 3 } }]));
    const torn = Buffer.concat(encodeRecords([{ op: 'put', db: 'app', coll: 'docs', doc: { _id: 4 } }])).subarray(0, 11);
    const journal = journalPath(dbPath, snapshotGeneration);
    await writeFile(journal, Buffer.concat([whole, torn]));
    await withServer({ dbPath, journalMaxBytes: 1 << 30 }, async (client) => {
      const docs = client.db('app').collection<{ _id: number }>('docs');
      expect((await docs.find({}).sort({ _id: 1 }).toArray()).map((doc) => doc._id)).toEqual([1, 2, 3]);
      expect((await stat(journal)).size).toBe(whole.length);
      await docs.insertOne({ _id: 5 });
    });
    await withServer({ dbPath }, async (client) => {
      const ids = (await client.db('app').collection<{ _id: number }>('docs').find({}).sort({ _id: 1 }).toArray()).map((doc) => doc._id);
      expect(ids).toEqual([1, 2, 3, 5]);
    });
  });

  it('refuses to start when an older journal is damaged, rather than silently losing its tail', async () => {
    const dbPath = await freshDirectory();
    const { encodeRecords } = await import('./record-codec.js');
    const record = (id: number) => Buffer.concat(encodeRecords([{ op: 'put', db: 'app', coll: 'docs', doc: { _id: id } }]));
    await writeFile(journalPath(dbPath, 1), Buffer.concat([record(1), record(2).subarray(0, 9)]));
    await writeFile(journalPath(dbPath, 2), record(3));
    await expect(startEmbeddedServer({ dbPath })).rejects.toThrow(/damaged/);
  });

  it('refuses a second server on a data directory in use', async () => {
    const dbPath = await freshDirectory();
    const first = await startEmbeddedMongo({ dbPath });
    try {
      await expect(startEmbeddedMongo({ dbPath })).rejects.toThrow(/already open|in use/);
    } finally {
      await first.stop();
    }
    // A LOCK left by a process that died (SIGKILL) is taken over.
    await writeFile(join(dbPath, 'LOCK'), '2147483646');
    const reopened = await startEmbeddedMongo({ dbPath });
    await reopened.stop();
  });
});
