// Single-document atomicity: a findOneAndUpdate compare-and-set has exactly one winner under contention.
import { MongoClient, ObjectId } from 'mongodb';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestTarget, type TestTarget } from './test-target.js';

const CALLERS = 100;
const CONNECTIONS = 20;

describe('embedded mongo: compare-and-set under concurrency', () => {
  let target: TestTarget;

  beforeAll(async () => {
    target = await openTestTarget();
  });
  afterAll(() => target.close());

  it(`lets exactly one of ${CALLERS} driver callers on ${CONNECTIONS} connections win pending → executing`, async () => {
    const client = await MongoClient.connect(target.uri, { maxPoolSize: CONNECTIONS, minPoolSize: CONNECTIONS });
    try {
      const approvals = client
        .db(target.uniqueDbName('cas_driver'))
        .collection<{ _id: ObjectId; status: string; attempts: number }>('approvals');
      const { insertedId } = await approvals.insertOne({ _id: new ObjectId(), status: 'pending', attempts: 0 });
      const results = await Promise.all(
        Array.from({ length: CALLERS }, () =>
          approvals.findOneAndUpdate(
            { _id: insertedId, status: 'pending' },
            { $set: { status: 'executing' }, $inc: { attempts: 1 } },
            { returnDocument: 'after' },
          ),
        ),
      );
      expect(results.filter((result) => result !== null)).toHaveLength(1);
      expect(await approvals.findOne({ _id: insertedId })).toMatchObject({ status: 'executing', attempts: 1 });
    } finally {
      await client.close();
    }
  });

  it(`lets exactly one of ${CALLERS} mongoose callers win, across a pool of ${CONNECTIONS}`, async () => {
    const connection = await mongoose
      .createConnection(target.uri, { dbName: target.uniqueDbName('cas_mongoose'), maxPoolSize: CONNECTIONS, minPoolSize: CONNECTIONS })
      .asPromise();
    try {
      const Approval = connection.model('Approval', new mongoose.Schema({ status: String, attempts: Number }));
      const approval = await Approval.create({ status: 'pending', attempts: 0 });
      const results = await Promise.all(
        Array.from({ length: CALLERS }, () =>
          Approval.findOneAndUpdate(
            { _id: approval._id, status: 'pending' },
            { $set: { status: 'executing' }, $inc: { attempts: 1 } },
            { new: true },
          ).lean(),
        ),
      );
      expect(results.filter((result) => result !== null)).toHaveLength(1);
      expect(await Approval.findById(approval._id).lean()).toMatchObject({ status: 'executing', attempts: 1 });
    } finally {
      await connection.close();
    }
  });

  it('applies every one of many concurrent $inc updates (no lost update)', async () => {
    const client = await MongoClient.connect(target.uri, { maxPoolSize: CONNECTIONS });
    try {
      const counters = client.db(target.uniqueDbName('inc')).collection<{ _id: string; n: number }>('counters');
      await counters.insertOne({ _id: 'c', n: 0 });
      await Promise.all(Array.from({ length: CALLERS }, () => counters.updateOne({ _id: 'c' }, { $inc: { n: 1 } })));
      expect((await counters.findOne({ _id: 'c' }))?.n).toBe(CALLERS);
    } finally {
      await client.close();
    }
  });
});
