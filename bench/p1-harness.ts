// P1: a safe skill through the gate (validate, capabilities, policy, risk, execute, audit, revision)
// vs the same writes done directly with mongoose: the item, its revision and the audit entry.
import { randomBytes } from 'node:crypto';
import { effectiveCapabilities } from '@lumibase/shared';
import mongoose, { type Connection, Schema } from 'mongoose';
import { createClient, type RedisClientType } from 'redis';
import { composeDomain } from '../server/src/compose-domain.js';
import { loadConfig } from '../server/src/config.js';
import { AISecureHarness, type HarnessContext } from '../server/src/gate/ai-secure-harness.js';
import { applyMongooseSettings } from '../server/src/infrastructure/mongoose-settings.js';
import { createLogger } from '../server/src/logger.js';
import { testRedisUrl } from '../test/support/redis-url.js';
import { type BenchRow, row } from './lib/report.js';
import { REPETITIONS, SETTINGS } from './lib/settings.js';
import { alternate } from './lib/stats.js';
import { difference, mongoCommandCounts, summariseMongo } from './lib/wire-counts.js';
import type { System } from './lib/system.js';

const GOAL = { op: '<=', value: 1.25 } as const;

/** The plain models a direct implementation would write: an item, its revision, an audit entry. */
function plainModels(connection: Connection) {
  const item = new Schema(
    { siteId: Schema.Types.ObjectId, collectionId: String, data: Schema.Types.Mixed, revision: Number },
    { collection: 'bench_items', timestamps: true },
  );
  item.index({ siteId: 1, collectionId: 1, createdAt: -1 });
  const revision = new Schema(
    { siteId: Schema.Types.ObjectId, itemId: Schema.Types.ObjectId, revision: Number, data: Schema.Types.Mixed, at: Date },
    { collection: 'bench_revisions' },
  );
  const audit = new Schema(
    { siteId: Schema.Types.ObjectId, action: String, skillName: String, actor: Schema.Types.Mixed, detail: Schema.Types.Mixed, at: Date },
    { collection: 'bench_audit' },
  );
  return {
    Item: connection.model('BenchItem', item),
    Revision: connection.model('BenchRevision', revision),
    Audit: connection.model('BenchAudit', audit),
  };
}

export async function runP1(system: System): Promise<{ rows: BenchRow[]; details: Record<string, unknown> }> {
  // As every LumiBase process runs (start-infrastructure.ts); the plain baseline shares the setting.
  applyMongooseSettings(mongoose);
  const connection = await mongoose
    .createConnection(system.cluster.mongoUri, { dbName: `bench_p1_${randomBytes(3).toString('hex')}` })
    .asPromise();
  const redis: RedisClientType = createClient({ url: testRedisUrl() });
  await redis.connect();
  const prefix = `bench-p1-${randomBytes(3).toString('hex')}`;
  const config = loadConfig({ QUEUE_PREFIX: prefix, LOG_LEVEL: 'silent' });
  const logger = createLogger({ level: 'silent' });
  const domain = await composeDomain({
    config,
    logger,
    mongo: connection,
    redis,
    redisUrl: testRedisUrl(),
    publish: () => {},
    // No sockets in this bench: nobody to disconnect.
    disconnect: { in: () => ({ disconnectSockets: () => {} }) },
  });
  const harness = new AISecureHarness({
    stores: domain.aiStores,
    executors: domain.executors,
    undoFor: (siteId, operationId) => domain.revisions.undoFor(siteId, operationId),
    targets: domain.approvalTargets,
  });
  const plain = plainModels(connection);
  await Promise.all([plain.Item.init(), plain.Revision.init(), plain.Audit.init()]);
  try {
    const site = await domain.services.sites.create('P1');
    await domain.services.collections.create(site.id, { name: 'posts', fields: [{ name: 'title', type: 'string', required: false }] });
    const context: HarnessContext = {
      siteId: site.id,
      actor: {
        id: new mongoose.Types.ObjectId().toString(),
        name: 'Bench',
        capabilities: effectiveCapabilities('admin'),
        isSuperadmin: false,
      },
      message: 'bench',
    };
    const siteObjectId = new mongoose.Types.ObjectId(site.id);
    const actor = { id: context.actor.id, name: context.actor.name };
    const seed = await harness.execute(context, { name: 'createItem', arguments: { collection: 'posts', data: { title: 'seed' } } });
    const seededId = (seed as { data: { id: string } }).data.id;
    const plainSeed = await plain.Item.create({ siteId: siteObjectId, collectionId: 'posts', data: { title: 'seed' }, revision: 1 });
    let counter = 0;

    const skills: Record<string, { harness: () => Promise<unknown>; plain: () => Promise<unknown> }> = {
      createItem: {
        harness: () =>
          harness.execute(context, { name: 'createItem', arguments: { collection: 'posts', data: { title: `t${++counter}` } } }),
        plain: async () => {
          const title = `t${++counter}`;
          const item = await plain.Item.create({ siteId: siteObjectId, collectionId: 'posts', data: { title }, revision: 1 });
          await plain.Revision.create({ siteId: siteObjectId, itemId: item._id, revision: 1, data: { title }, at: new Date() });
          await plain.Audit.create({
            siteId: siteObjectId,
            action: 'executed',
            skillName: 'createItem',
            actor,
            detail: { title },
            at: new Date(),
          });
        },
      },
      updateItem: {
        harness: () =>
          harness.execute(context, {
            name: 'updateItem',
            arguments: { collection: 'posts', id: seededId, data: { title: `u${++counter}` } },
          }),
        plain: async () => {
          const title = `u${++counter}`;
          const item = await plain.Item.findOneAndUpdate(
            { _id: plainSeed._id, siteId: siteObjectId },
            { $set: { 'data.title': title }, $inc: { revision: 1 } },
            { new: true },
          ).lean();
          await plain.Revision.create({
            siteId: siteObjectId,
            itemId: plainSeed._id,
            revision: item?.revision,
            data: { title },
            at: new Date(),
          });
          await plain.Audit.create({
            siteId: siteObjectId,
            action: 'executed',
            skillName: 'updateItem',
            actor,
            detail: { title },
            at: new Date(),
          });
        },
      },
      listItems: {
        harness: () => harness.execute(context, { name: 'listItems', arguments: { collection: 'posts' } }),
        plain: async () => {
          await Promise.all([
            plain.Item.find({ siteId: siteObjectId, collectionId: 'posts' }).sort({ createdAt: -1 }).limit(25).lean(),
            plain.Item.countDocuments({ siteId: siteObjectId, collectionId: 'posts' }),
          ]);
          await plain.Audit.create({ siteId: siteObjectId, action: 'executed', skillName: 'listItems', actor, detail: {}, at: new Date() });
        },
      },
    };

    const rows: BenchRow[] = [];
    const details: Record<string, unknown> = {};
    for (const [skill, paths] of Object.entries(skills)) {
      // Warm both paths (JIT, connection pool, first-use indexes) before timing them.
      for (let index = 0; index < 3; index++) {
        await paths.harness();
        await paths.plain();
      }
      const perOperation = (operation: () => Promise<unknown>) => async () => {
        const started = performance.now();
        for (let index = 0; index < SETTINGS.p1Operations; index++) await operation();
        return (performance.now() - started) / SETTINGS.p1Operations;
      };
      const result = await alternate(REPETITIONS, perOperation(paths.harness), perOperation(paths.plain));
      const countOf = async (operation: () => Promise<unknown>) => {
        const before = await mongoCommandCounts(system.db);
        await operation();
        return summariseMongo(difference(await mongoCommandCounts(system.db), before), 1);
      };
      const harnessCommands = await countOf(paths.harness);
      const plainCommands = await countOf(paths.plain);
      details[skill] = { harness: harnessCommands, plain: plainCommands, runs: result };
      rows.push(
        row({
          id: 'P1',
          name: `${skill} via the gate`,
          measured: result.measured,
          baseline: result.baseline,
          unit: 'ms/op',
          goal: GOAL,
          note: `Mongo round trips ${harnessCommands.roundTrips} (${harnessCommands.writes} writes) vs ${plainCommands.roundTrips} (${plainCommands.writes})`,
        }),
      );
    }
    return { rows, details };
  } finally {
    await domain.close();
    await connection.dropDatabase().catch(() => {});
    await connection.close();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(keys);
    await redis.quit();
  }
}
