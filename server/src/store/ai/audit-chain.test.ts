// The audit's hash chain over the wire: appends link entries by seq; verify names the first broken seq.
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../test-support/test-database.js';
import { createTestStores } from '../../../test-support/test-stores.js';
import { takeTurns } from '../../../test-support/take-turns.js';
import { openWatchedConnection } from '../../../test-support/watched-connection.js';
import { type ChainedContent, chainHash, GENESIS_HASH } from './audit-chain.js';
import type { AiStores } from './ai-stores.js';

let database: TestDatabase;
let stores: AiStores;

beforeAll(async () => {
  database = await openTestDatabase('audit-chain');
  ({ aiStores: stores } = await createTestStores(database.connection));
});
afterAll(() => database?.close());

const actor = { id: 'u1', name: 'Ada' };
const freshSite = () => new Types.ObjectId().toHexString();
const auditCollection = () => database.connection.collection('ai_audit');

async function chainOf(siteId: string, length: number) {
  const audit = stores.forSite(siteId).audit;
  for (let index = 0; index < length; index++) {
    await audit.append({ action: 'executed', skillName: `s${index}`, actor, detail: { index }, createdAt: new Date().toISOString() });
  }
  return audit;
}

describe('chainHash', () => {
  it('is the hash chains written before canonical JSON moved to shared/ carry (they still verify)', () => {
    // Computed by the audit's own serialisation before it moved: undefined members and elements, nesting, non-ASCII.
    const written: ChainedContent = {
      siteId: '65f0c0ffee0000000000beef',
      seq: 2,
      prevHash: 'ab'.repeat(32),
      action: 'executed',
      skillName: 'updateItem',
      approvalId: '65f0c0ffee0000000000cafe',
      actor: { id: 'u1', name: 'Ada Lovelace' },
      detail: { z: [1, undefined, { b: 'é', a: null }], a: { nested: true, skip: undefined }, n: 1.5 },
      createdAt: '2026-01-02T03:04:05.678Z',
    };
    expect(chainHash(written)).toBe('24f008fc8c1bb267ffcecf78cf8a24a2fad23875c9de146920e907af7e1641ad');
  });
});

describe('the audit chain', () => {
  it('numbers entries 1, 2, … per site, links each to the previous hash, and verifies an untouched chain', async () => {
    const siteId = freshSite();
    const audit = await chainOf(siteId, 5);
    await chainOf(freshSite(), 2);
    const entries = (await audit.list({ limit: 10 })).sort((a, b) => a.seq! - b.seq!);
    expect(entries.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(entries[0]!.prevHash).toBe(GENESIS_HASH);
    for (let index = 1; index < entries.length; index++) expect(entries[index]!.prevHash).toBe(entries[index - 1]!.hash);
    // The hash is the documented one: SHA-256 of prevHash and the canonical JSON without `hash`.
    const first = entries[0]!;
    const content: ChainedContent = {
      siteId,
      seq: 1,
      prevHash: GENESIS_HASH,
      action: 'executed',
      skillName: 's0',
      actor,
      detail: { index: 0 },
      createdAt: first.createdAt,
    };
    expect(first.hash).toBe(chainHash(content));
    expect(await audit.verify()).toEqual({ valid: true, entries: 5 });
  });

  it('names the seq of an entry changed behind the API', async () => {
    const siteId = freshSite();
    const audit = await chainOf(siteId, 5);
    await auditCollection().updateOne({ siteId: new Types.ObjectId(siteId), seq: 3 }, { $set: { skillName: 'forged' } });
    expect(await audit.verify()).toEqual({ valid: false, entries: 5, brokenAt: 3 });
    // A field the API never writes, added to an entry, breaks it too.
    const other = freshSite();
    const otherAudit = await chainOf(other, 3);
    await auditCollection().updateOne({ siteId: new Types.ObjectId(other), seq: 2 }, { $set: { detail: { forged: true } } });
    expect(await otherAudit.verify()).toEqual({ valid: false, entries: 3, brokenAt: 2 });
  });

  it('names the seq of an entry removed behind the API', async () => {
    const siteId = freshSite();
    const audit = await chainOf(siteId, 5);
    await auditCollection().deleteOne({ siteId: new Types.ObjectId(siteId), seq: 2 });
    expect(await audit.verify()).toEqual({ valid: false, entries: 4, brokenAt: 2 });
  });

  it('names the seq of an entry inserted behind the API, with or without a seq of its own', async () => {
    const siteId = freshSite();
    const audit = await chainOf(siteId, 4);
    const last = (await audit.list({ limit: 1 }))[0]!;
    await auditCollection().insertOne({
      siteId: new Types.ObjectId(siteId),
      action: 'approved',
      actor,
      createdAt: new Date(),
      seq: 5,
      prevHash: last.hash,
      hash: 'f'.repeat(64),
    });
    expect(await audit.verify()).toEqual({ valid: false, entries: 5, brokenAt: 5 });

    const other = freshSite();
    const otherAudit = await chainOf(other, 3);
    await auditCollection().insertOne({ siteId: new Types.ObjectId(other), action: 'approved', actor, createdAt: new Date() });
    expect(await otherAudit.verify()).toEqual({ valid: false, entries: 4, brokenAt: 1 });
  });

  it('stays linear and gap-free when two processes (two connections, each with its own queue) append at once', async () => {
    const otherConnection = await database.connect();
    const { aiStores: otherStores } = await createTestStores(otherConnection);
    const siteId = freshSite();
    const appendMany = (factory: AiStores, who: string) =>
      Promise.all(
        Array.from({ length: 15 }, (_, index) =>
          factory
            .forSite(siteId)
            .audit.append({ action: 'executed', skillName: `${who}${index}`, actor, createdAt: new Date().toISOString() }),
        ),
      );
    await Promise.all([appendMany(stores, 'a'), appendMany(otherStores, 'b')]);
    const audit = stores.forSite(siteId).audit;
    const seqs = (await audit.list({ limit: 100 })).map((entry) => entry.seq!).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
    expect(await audit.verify()).toEqual({ valid: true, entries: 30 });
  });

  it('stays linear when two processes take turns: the one that appended before links to the other’s latest entry', async () => {
    const { aiStores: otherStores } = await createTestStores(await database.connect());
    const siteId = freshSite();
    const turns = ['a', 'b', 'b', 'a', 'b', 'a', 'a', 'b'];
    for (const [index, who] of turns.entries()) {
      await (who === 'a' ? stores : otherStores)
        .forSite(siteId)
        .audit.append({ action: 'executed', skillName: `${who}${index}`, actor, createdAt: new Date().toISOString() });
    }
    expect(await stores.forSite(siteId).audit.verify()).toEqual({ valid: true, entries: turns.length });
    expect(await otherStores.forSite(siteId).audit.verify()).toEqual({ valid: true, entries: turns.length });
  });

  it('appends a process’s next entry with one insert and one head update, reading nothing', async () => {
    const watched = await openWatchedConnection(database);
    try {
      const { aiStores: watchedStores } = await createTestStores(watched.connection);
      const audit = watchedStores.forSite(freshSite()).audit;
      await audit.append({ action: 'approval_requested', actor, createdAt: new Date().toISOString() });
      watched.take();
      await audit.append({ action: 'approved', actor, createdAt: new Date().toISOString() });
      expect(watched.take()).toEqual(['insert ai_audit', 'findAndModify ai_audit_heads']);
      expect(await audit.verify()).toEqual({ valid: true, entries: 2 });
    } finally {
      await watched.close();
    }
  });

  it('when two processes take turns, reads the head before the first entry of each turn instead of guessing', async () => {
    const watched = await openWatchedConnection(database);
    try {
      const siteId = freshSite();
      const a = (await createTestStores(watched.connection)).aiStores.forSite(siteId).audit;
      const b = (await createTestStores(await database.connect())).aiStores.forSite(siteId).audit;
      const append = async (audit: typeof a, skillName: string) =>
        (await audit.append({ action: 'executed', skillName, actor, createdAt: new Date().toISOString() })).seq;
      await takeTurns({ a, b, watched, append, entries: 'ai_audit', heads: 'ai_audit_heads' });
      expect(await a.verify()).toEqual({ valid: true, entries: 6 });
    } finally {
      await watched.close();
    }
  });

  it('verifies 100,000 entries, walking them with a cursor to the last one', { timeout: 240_000 }, async () => {
    const siteId = freshSite();
    const site = new Types.ObjectId(siteId);
    let prevHash = GENESIS_HASH;
    const createdAt = new Date('2026-01-01T00:00:00.000Z');
    const total = 100_000;
    for (let start = 1; start <= total; start += 5_000) {
      const batch = [];
      for (let seq = start; seq < start + 5_000; seq++) {
        const hash = chainHash({ siteId, seq, prevHash, action: 'executed', actor, createdAt: createdAt.toISOString() });
        batch.push({ siteId: site, action: 'executed', actor, createdAt, seq, prevHash, hash });
        prevHash = hash;
      }
      await auditCollection().insertMany(batch, { ordered: false });
    }
    const audit = stores.forSite(siteId).audit;
    expect(await audit.verify()).toEqual({ valid: true, entries: total });
    // The walk reaches the end: a change to the very last entry is found.
    await auditCollection().updateOne({ siteId: site, seq: total }, { $set: { action: 'denied' } });
    expect(await audit.verify()).toEqual({ valid: false, entries: total, brokenAt: total });
  });
});
