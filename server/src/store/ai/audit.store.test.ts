import fc from 'fast-check';
import { AUDIT_ACTIONS } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorArbitrary, dateArbitrary, jsonObjectArbitrary, textArbitrary } from '../../testing/ai-arbitraries.js';
import { freshSiteId, openTestDatabase, type TestDatabase } from '../../testing/ai-test-database.js';

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
});
