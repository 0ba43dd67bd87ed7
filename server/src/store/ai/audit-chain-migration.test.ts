// The pre-chain audit migration over the wire: entries written before the chain existed are chained
// once, oldest first, even by two servers migrating at once; verify() is then valid, the run is
// audited, and an entry inserted behind the API's back afterwards is still named by verify().
import { randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSiteId, openTestDatabase, type TestDatabase } from '../../../test-support/ai-test-database.js';
import { AuditChainMigration } from './audit-chain-migration.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

const migration = (owner: string = randomUUID()) =>
  new AuditChainMigration({ connection: database.connection, models: database.stores.models, owner });

/** An entry as the code before the chain wrote it: no seq, prevHash or hash. */
function legacyEntry(siteId: string, minutesAgo: number, action = 'executed') {
  return {
    _id: new Types.ObjectId(),
    siteId: new Types.ObjectId(siteId),
    action,
    skillName: 'createItem',
    actor: { id: 'u1', name: 'Ada' },
    detailJson: JSON.stringify({ minutesAgo }),
    createdAt: new Date(Date.now() - minutesAgo * 60_000),
  };
}

const raw = () => database.connection.collection('ai_audit');

describe('AuditChainMigration', () => {
  it('chains pre-chain entries once, oldest first, with two servers at once, and audits it', async () => {
    // Forget any earlier run's end marker: this test starts from a database that needs the migration.
    await database.connection.collection('ai_audit_chain_migration').deleteMany({});
    const unchained = freshSiteId();
    const mixed = freshSiteId();
    await raw().insertMany([legacyEntry(unchained, 30), legacyEntry(unchained, 50), legacyEntry(unchained, 40)]);
    await raw().insertMany([legacyEntry(mixed, 90), legacyEntry(mixed, 80, 'approved')]);
    // The chain started later on the mixed site.
    await database.stores
      .forSite(mixed)
      .audit.append({ action: 'executed', actor: { id: 'u2', name: 'Bo' }, createdAt: new Date().toISOString() });
    expect(await database.stores.forSite(unchained).audit.verify()).toMatchObject({ valid: false, brokenAt: 1 });
    expect(await database.stores.forSite(mixed).audit.verify()).toMatchObject({ valid: false, brokenAt: 1 });

    const [first, second] = await Promise.all([migration('server-a').run(), migration('server-b').run()]);
    expect(first.chained + second.chained).toBe(5);

    for (const [siteId, legacyCount, total] of [
      [unchained, 3, 4],
      [mixed, 2, 4],
    ] as const) {
      const audit = database.stores.forSite(siteId).audit;
      expect(await audit.verify()).toEqual({ valid: true, entries: total });
      const entries = (await audit.list({ limit: 10 })).sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
      expect(entries.map((entry) => entry.seq)).toEqual([1, 2, 3, 4]);
      const migrated = entries.filter((entry) => entry.action === 'chain_migrated');
      expect(migrated).toHaveLength(1);
      expect(migrated[0]).toMatchObject({ actor: { id: 'system' }, detail: { entries: legacyCount }, seq: total });
      // Oldest first among the legacy entries.
      const legacyAges = entries
        .filter((entry) => entry.skillName === 'createItem')
        .map((entry) => (entry.detail as { minutesAgo: number }).minutesAgo);
      expect(legacyAges).toEqual([...legacyAges].sort((a, b) => b - a));
    }
    expect(
      await raw().countDocuments({ siteId: { $in: [new Types.ObjectId(unchained), new Types.ObjectId(mixed)] }, seq: { $exists: false } }),
    ).toBe(0);

    // Run again (a later start-up): nothing more is chained or audited.
    expect(await migration().run()).toEqual({ sites: 0, chained: 0 });
    expect(await database.stores.forSite(unchained).audit.count()).toBe(4);

    // An entry inserted behind the API's back after the migration stays unchained: verify names it.
    const tampered = legacyEntry(unchained, 1);
    await raw().insertOne(tampered);
    expect(await migration().run()).toEqual({ sites: 0, chained: 0 });
    expect(await database.stores.forSite(unchained).audit.verify()).toMatchObject({ valid: false, brokenAt: 1 });
    await raw().deleteOne({ _id: tampered._id });
  });

  it('leaves a site another server is migrating to it, and finishes it after that server’s lease', async () => {
    await database.connection.collection('ai_audit_chain_migration').deleteMany({});
    const siteId = freshSiteId();
    await raw().insertMany([legacyEntry(siteId, 20), legacyEntry(siteId, 10)]);
    // server-a claimed the site and died before chaining anything.
    await database.connection
      .collection('ai_audit_chain_migration')
      .insertOne({ _id: `site:${siteId}` as never, owner: 'server-a', leaseUntil: new Date(Date.now() + 60_000) });
    expect(await migration('server-b').run()).toEqual({ sites: 0, chained: 0 });
    expect(await database.stores.forSite(siteId).audit.verify()).toMatchObject({ valid: false });
    const later = new AuditChainMigration({
      connection: database.connection,
      models: database.stores.models,
      owner: 'server-b',
      clock: () => new Date(Date.now() + 120_000),
    });
    expect(await later.run()).toEqual({ sites: 1, chained: 2 });
    expect(await database.stores.forSite(siteId).audit.verify()).toEqual({ valid: true, entries: 3 });
  });
});
