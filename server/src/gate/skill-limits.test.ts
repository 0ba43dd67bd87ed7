// Hourly skill limits shared by two servers (docs/PROPERTIES.md 24): two gates, each with its own MongoDB connection and its
// own Redis client (as two server processes have), over one site; however many calls race, no more than the limit run.
import { randomBytes } from 'node:crypto';
import { CAPABILITIES } from '@lumibase/shared';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AISecureHarness, type HarnessActor } from './ai-secure-harness.js';
import { NO_TARGETS } from '../skills/approval-targets.js';
import { freshSiteId } from '../../test-support/ai-test-database.js';
import { recordingExecutors } from '../../test-support/recording-executors.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createTestStores } from '../../test-support/test-stores.js';
import { CountedSkillLimits } from './skill-limits.js';

const prefix = `test-skill-limits-${randomBytes(4).toString('hex')}:`;
let database: TestDatabase;
const clients: RedisClientType[] = [];
const gates: AISecureHarness[] = [];
const recorder = recordingExecutors();

beforeAll(async () => {
  database = await openTestDatabase('skill-limits');
  for (const connection of [database.connection, await database.connect()]) {
    const redis: RedisClientType = createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
    await redis.connect();
    clients.push(redis);
    const { aiStores } = await createTestStores(connection);
    gates.push(
      new AISecureHarness({
        targets: NO_TARGETS,
        stores: aiStores,
        executors: recorder.executors,
        limits: CountedSkillLimits.redis(redis, prefix),
      }),
    );
  }
});
afterAll(async () => {
  const keys = await clients[0]!.keys(`${prefix}*`);
  if (keys.length > 0) await clients[0]!.del(keys);
  await Promise.all(clients.map((client) => client.quit()));
  await database?.close();
});

const admin: HarnessActor = { id: 'u-ada', name: 'Ada', capabilities: [...CAPABILITIES], isSuperadmin: false };

it('two servers share one hourly count: of 24 concurrent calls with a limit of 5, exactly 5 run and 19 are denied', async () => {
  const siteId = freshSiteId();
  const { aiStores } = await createTestStores(database.connection);
  await aiStores.forSite(siteId).policy.update({ limits: { createItem: 5, deleteItem: 3 } }, new Date());
  recorder.reset();
  const calls = Array.from({ length: 24 }, (_, index) =>
    gates[index % 2]!.execute(
      { siteId, actor: admin, message: 'go' },
      { name: 'createItem', arguments: { collection: 'posts', data: { n: index } } },
    ),
  );
  const outcomes = await Promise.all(calls);
  expect(outcomes.filter((outcome) => outcome.status === 'executed')).toHaveLength(5);
  const refused = outcomes.filter((outcome) => outcome.status === 'denied');
  expect(refused).toHaveLength(19);
  for (const outcome of refused) expect(outcome.message).toBe('the hourly limit of “Create an item” for this site is reached');
  expect(recorder.calls).toHaveLength(5);

  // Approvals requested count the same way, through either server.
  const asks = await Promise.all(
    Array.from({ length: 8 }, (_, index) =>
      gates[index % 2]!.execute(
        { siteId, actor: admin, message: 'go' },
        { name: 'deleteItem', arguments: { collection: 'posts', id: `i${index}` } },
      ),
    ),
  );
  expect(asks.filter((outcome) => outcome.status === 'pending_approval')).toHaveLength(3);
  expect((await aiStores.forSite(siteId).approvals.list({ status: 'pending' })).length).toBe(3);
});

it('a raised limit lets more run within the same hour; refusals were not counted', async () => {
  const siteId = freshSiteId();
  const { aiStores } = await createTestStores(database.connection);
  const policy = aiStores.forSite(siteId).policy;
  await policy.update({ limits: { updateItem: 1 } }, new Date());
  const run = (gate: AISecureHarness) =>
    gate.execute({ siteId, actor: admin, message: 'go' }, { name: 'updateItem', arguments: { collection: 'posts', id: 'a', data: {} } });
  expect((await run(gates[0]!)).status).toBe('executed');
  expect((await run(gates[1]!)).status).toBe('denied');
  expect((await run(gates[0]!)).status).toBe('denied');
  await policy.update({ limits: { updateItem: 2 } }, new Date());
  expect((await run(gates[1]!)).status).toBe('executed');
  expect((await run(gates[0]!)).status).toBe('denied');
  await policy.update({ limits: { updateItem: null } }, new Date());
  expect((await run(gates[0]!)).status).toBe('executed');
});
