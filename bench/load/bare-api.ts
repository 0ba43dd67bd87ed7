// Baselines for P3 and P4 in their own process: a bare Express app over the MongoDB driver and BullMQ.
//   GET  /approvals  the session lookup, membership check and pending-approvals query P4 measures, nothing else.
//   POST /pipeline   `before` writes, a BullMQ add, a worker doing `after` writes, the answer once it finished:
//                    the Mongo writes of decide → approved with a bare queue hop (P3).
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Queue, QueueEvents, Worker } from 'bullmq';
import express from 'express';
import { MongoClient, ObjectId } from 'mongodb';
import { serveParent } from './serve-parent.js';

const mongo = new MongoClient(process.env.MONGODB_URI as string);
const db = mongo.db(process.env.MONGODB_DB as string);
const redisUrl = process.env.REDIS_URL as string;
const prefix = process.env.QUEUE_PREFIX as string;
const concurrency = Number(process.env.WORKER_CONCURRENCY ?? 4);
const queueName = 'bare-pipeline';
const queue = new Queue(queueName, { connection: { url: redisUrl } as never, prefix });
const queueEvents = new QueueEvents(queueName, { connection: { url: redisUrl } as never, prefix });
const scratch = db.collection<{ _id: string; n: number; at: Date }>('bench_pipeline');

async function writes(id: string, count: number): Promise<void> {
  for (let write = 0; write < count; write++) {
    await scratch.updateOne({ _id: id }, { $set: { n: write, at: new Date() } }, { upsert: true });
  }
}

const worker = new Worker(queueName, async (job) => writes(job.data.id as string, job.data.after as number), {
  connection: { url: redisUrl } as never,
  prefix,
  concurrency,
});

const app = express();
app.use(express.json());
app.get('/approvals', async (request, response) => {
  const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
  const session = await db
    .collection('sessions')
    .findOne({ tokenHash: createHash('sha256').update(token, 'utf8').digest('hex'), expiresAt: { $gt: new Date() } });
  const user = session ? await db.collection('users').findOne({ _id: session.userId }) : null;
  if (!user) {
    response.status(401).json({ error: 'unauthenticated' });
    return;
  }
  const siteId = new ObjectId(String(request.headers['x-site-id']));
  const [site, membership] = await Promise.all([
    db.collection('sites').findOne({ _id: siteId }),
    db.collection('memberships').findOne({ siteId, userId: user._id }),
  ]);
  if (!site || !membership) {
    response.status(403).json({ error: 'forbidden' });
    return;
  }
  const approvals = await db
    .collection('ai_approvals')
    .find({ siteId, status: 'pending' })
    .sort({ createdAt: -1, _id: -1 })
    .limit(100)
    .toArray();
  response.json({ data: approvals });
});
app.post('/pipeline', async (request, response) => {
  const { id, before, after } = request.body as { id: string; before: number; after: number };
  await writes(id, before);
  const job = await queue.add('run', { id, after }, { removeOnComplete: { age: 60 } });
  await job.waitUntilFinished(queueEvents, 30_000);
  response.json({ data: { id } });
});

const server = app.listen(0, '127.0.0.1');

serveParent(
  {
    async listen() {
      await mongo.connect();
      await Promise.all([queue.waitUntilReady(), queueEvents.waitUntilReady(), worker.waitUntilReady()]);
      if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    },
  },
  async () => {
    server.close();
    await worker.close();
    await queueEvents.close();
    await queue.obliterate({ force: true }).catch(() => {});
    await queue.close();
    await mongo.close();
  },
);
