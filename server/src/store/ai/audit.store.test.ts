import fc from 'fast-check';
import { AUDIT_ACTIONS } from '@lumibase/shared';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorArbitrary, dateArbitrary, jsonObjectArbitrary, textArbitrary } from '../../../test-support/ai-arbitraries.js';
import { chainHash } from './audit-chain.js';
import { freshSiteId, openTestDatabase, type TestDatabase } from '../../../test-support/ai-test-database.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

describe('AuditStore', () => {
  it('gives back any entry deep-equal, its JSON detail included', async () => {
    const entryArbitrary = fc.record(
      {
        action: fc.constantFrom(...AUDIT_ACTIONS),
        skillName: textArbitrary(30),
        approvalId: textArbitrary(24),
        actor: actorArbitrary,
        detail: jsonObjectArbitrary,
        createdAt: dateArbitrary,
      },
      { requiredKeys: ['action', 'actor', 'createdAt'] },
    );
    await fc.assert(
      fc.asyncProperty(entryArbitrary, async (entry) => {
        const audit = database.stores.forSite(freshSiteId()).audit;
        const created = await audit.append(entry);
        expect(await audit.list()).toEqual([
          {
            ...entry,
            id: created.id,
            siteId: audit.siteId,
            seq: 1,
            prevHash: '0'.repeat(64),
            hash: expect.stringMatching(/^[0-9a-f]{64}$/),
          },
        ]);
        expect(await audit.verify()).toEqual({ valid: true, entries: 1 });
      }),
      { numRuns: 100 },
    );
  });

  it('lists the site’s entries newest first (ties: latest written first) with limit and offset, and counts them', async () => {
    const audit = database.stores.forSite(freshSiteId()).audit;
    const actor = { id: 'u1', name: 'Ada' };
    for (let index = 0; index < 7; index += 1) {
      await audit.append({
        action: 'executed',
        skillName: `s${index}`,
        actor,
        createdAt: new Date(Date.UTC(2025, 0, 1 + (index % 4))).toISOString(),
      });
    }
    await database.stores.forSite(freshSiteId()).audit.append({ action: 'denied', actor, createdAt: new Date().toISOString() });
    const all = await audit.list({ limit: 100 });
    expect(all.map((entry) => entry.skillName)).toEqual(['s3', 's6', 's2', 's5', 's1', 's4', 's0']);
    expect((await audit.list({ limit: 2, offset: 1 })).map((entry) => entry.skillName)).toEqual(['s6', 's2']);
    expect(await audit.count()).toBe(7);
  });

  it('does not verify a chain whose latest entries were deleted: it must end at the head, and breaks at the first missing seq', async () => {
    const audit = database.stores.forSite(freshSiteId()).audit;
    const actor = { id: 'u-1', name: 'Ada' };
    for (const action of ['approval_requested', 'approved', 'executed'] as const) {
      await audit.append({ action, skillName: 'deleteCollection', actor, createdAt: new Date().toISOString() });
    }
    expect(await audit.verify()).toEqual({ valid: true, entries: 3 });
    const entries = database.connection.collection('ai_audit');
    const siteId = new Types.ObjectId(audit.siteId);
    await entries.deleteOne({ siteId, seq: 3 });
    expect(await audit.verify()).toEqual({ valid: false, entries: 2, brokenAt: 3 });
    await entries.deleteOne({ siteId, seq: 2 });
    expect(await audit.verify()).toEqual({ valid: false, entries: 1, brokenAt: 2 });
  });

  it('does not verify a last entry rewritten with a recomputed hash: the head names the hash it was written with', async () => {
    const audit = database.stores.forSite(freshSiteId()).audit;
    const actor = { id: 'u-1', name: 'Ada' };
    await audit.append({ action: 'approval_requested', actor, createdAt: new Date().toISOString() });
    const last = await audit.append({ action: 'approved', actor, createdAt: new Date().toISOString() });
    const forged = { ...last, actor: { id: 'u-2', name: 'Mallory' } };
    const hash = chainHash({
      siteId: forged.siteId,
      seq: forged.seq!,
      prevHash: forged.prevHash!,
      action: forged.action,
      actor: forged.actor,
      createdAt: forged.createdAt,
    });
    await database.connection
      .collection('ai_audit')
      .updateOne({ siteId: new Types.ObjectId(audit.siteId), seq: 2 }, { $set: { actor: forged.actor, hash } });
    expect(await audit.verify()).toEqual({ valid: false, entries: 2, brokenAt: 2 });
  });
});
