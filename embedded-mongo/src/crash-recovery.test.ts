// SIGKILL during a stream of acknowledged inserts: after restart every acknowledged document and index is there.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { runningAgainstRealMongo } from '../conformance/test-target.js';

const PACKAGE_ROOT = fileURLToPath(new URL('../', import.meta.url));
const WRITERS = 16;

interface ServerProcess {
  child: ChildProcess;
  uri: string;
  output: () => string;
}

/**
 * Runs the CLI (`npm run db:embedded`) as node + tsx's loader rather than through `npx tsx`: the
 * signal then reaches the server itself instead of a wrapper, and startup is ~2.5 s shorter.
 */
function startCli(dbPath: string, extra: string[] = []): Promise<ServerProcess> {
  const args = ['--import', 'tsx', 'src/cli.ts', '--port', '0', '--dbpath', dbPath, ...extra];
  const child = spawn(process.execPath, args, {
    cwd: PACKAGE_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within 30 s:\n${output}`)), 30_000);
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const ready = /^ready (mongodb:\/\/\S+)$/m.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve({ child, uri: ready[1] as string, output: () => output });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code} before ready:\n${output}`)));
  });
}

function kill(server: ServerProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.once('exit', () => resolve());
    server.child.kill(signal);
  });
}

/** Inserts until told to stop, recording every _id whose insert was acknowledged. */
async function streamInserts(uri: string, firstId: number, acknowledged: Set<number>, stop: { now: boolean }): Promise<void> {
  const client = new MongoClient(uri, { maxPoolSize: WRITERS, serverSelectionTimeoutMS: 2_000, connectTimeoutMS: 2_000 });
  const docs = client.db('app').collection<{ _id: number; n: number; site: string; createdAt: Date; pad: string }>('events');
  let next = firstId;
  const writer = async (slot: number) => {
    while (!stop.now) {
      // Every fourth write is a small insertMany, so multi-document commands are killed mid-way too.
      const ids = slot % 4 === 0 ? [next++, next++, next++] : [next++];
      const batch = ids.map((id) => ({ _id: id, n: id, site: `s${id % 3}`, createdAt: new Date(), pad: 'x'.repeat(300) }));
      try {
        if (batch.length === 1) await docs.insertOne(batch[0] as (typeof batch)[number]);
        else await docs.insertMany(batch);
        for (const id of ids) acknowledged.add(id);
      } catch {
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, slot) => writer(slot)));
  await client.close(true).catch(() => {});
}

const EXPECTED_INDEXES = [
  { name: '_id_', key: { _id: 1 } },
  { name: 'n_1', key: { n: 1 }, unique: true },
  { name: 'site_1_createdAt_-1', key: { site: 1, createdAt: -1 } },
  { name: 'createdAt_1', key: { createdAt: 1 }, expireAfterSeconds: 86_400 },
];

describe.skipIf(runningAgainstRealMongo)('embedded mongo (embedded only): crash recovery', () => {
  const started: ServerProcess[] = [];
  let dbPath = '';

  afterAll(async () => {
    for (const server of started) await kill(server, 'SIGKILL');
    if (dbPath) await rm(dbPath, { recursive: true, force: true });
  });

  async function start(extra: string[] = []): Promise<ServerProcess> {
    const server = await startCli(dbPath, extra);
    started.push(server);
    return server;
  }

  async function verify(uri: string, acknowledged: Set<number>): Promise<void> {
    const client = await MongoClient.connect(uri);
    try {
      const docs = client.db('app').collection<{ _id: number }>('events');
      const present = new Set((await docs.find({}, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id));
      const lost = [...acknowledged].filter((id) => !present.has(id));
      expect(lost).toEqual([]);
      const indexes = (await docs.listIndexes().toArray()).map(({ name, key, unique, expireAfterSeconds }) =>
        JSON.parse(JSON.stringify({ name, key, unique, expireAfterSeconds })),
      );
      expect(indexes).toEqual(EXPECTED_INDEXES);
      const duplicate = await docs.insertOne({ _id: -1, n: [...acknowledged][0] } as never).catch((error: { code: number }) => error.code);
      expect(duplicate).toBe(11000);
    } finally {
      await client.close();
    }
  }

  it('keeps every acknowledged insert and every index across two SIGKILLs mid-stream', async () => {
    dbPath = await mkdtemp(join(tmpdir(), 'lumibase-crash-'));
    // A small journal limit makes snapshots and compaction run during the stream, so kills land in them too.
    const compactOften = ['--journal-max-bytes', '65536'];
    const acknowledged = new Set<number>();

    let server = await start(compactOften);
    const setup = await MongoClient.connect(server.uri);
    const events = setup.db('app').collection('events');
    await events.createIndex({ n: 1 }, { unique: true });
    await events.createIndex({ site: 1, createdAt: -1 });
    await events.createIndex({ createdAt: 1 }, { expireAfterSeconds: 86_400 });
    await setup.close();

    for (const [round, firstId] of [
      [0, 0],
      [1, 1_000_000],
    ] as const) {
      const stop = { now: false };
      const stream = streamInserts(server.uri, firstId, acknowledged, stop);
      await new Promise((resolve) => setTimeout(resolve, 600 + Math.random() * 600));
      const acknowledgedBeforeKill = acknowledged.size;
      await kill(server, 'SIGKILL');
      stop.now = true;
      await stream;
      expect(acknowledgedBeforeKill, `round ${round} streamed too little to be meaningful`).toBeGreaterThan(50);
      server = await start(compactOften);
      await verify(server.uri, acknowledged);
    }

    await kill(server, 'SIGTERM');
    expect(server.child.exitCode, server.output()).toBe(0);
    expect(existsSync(join(dbPath, 'LOCK'))).toBe(false);
  }, 90_000);
});
