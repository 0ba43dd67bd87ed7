// The operation ledger over the wire: one claim per operation, even when runs race.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSiteId, openTestDatabase, type TestDatabase } from '../../../test-support/ai-test-database.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

// Recent: claims older than the TTL index's 30 days are removed by the TTL monitor mid-test (a fixed
// date in the past made 'forgets a released claim' fail whenever the monitor ran in between).
const at = new Date();
const ledgerOf = (siteId: string) => database.stores.forSite(siteId).operations;

describe('OperationStore', () => {
  it('answers new, then started, then completed with the exact result', async () => {
    const ledger = ledgerOf(freshSiteId());
    const operation = { operationId: 'op-1', skillName: 'createItem', at };
    expect(await ledger.claim(operation)).toEqual({ state: 'new' });
    expect(await ledger.claim(operation)).toEqual({ state: 'started' });
    const result = { id: 'a', data: { $set: -0, 'a.b': ['x', null] } };
    await ledger.complete('op-1', result, at);
    const claim = await ledger.claim(operation);
    expect(claim).toEqual({ state: 'completed', result });
    expect(Object.is((claim as { result: { data: { $set: number } } }).result.data.$set, -0)).toBe(true);
  });

  it('gives exactly one of many racing claims the first run', async () => {
    const ledger = ledgerOf(freshSiteId());
    const claims = await Promise.all(Array.from({ length: 8 }, () => ledger.claim({ operationId: 'raced', skillName: 'deleteItem', at })));
    expect(claims.filter((claim) => claim.state === 'new')).toHaveLength(1);
    expect(claims.filter((claim) => claim.state === 'started')).toHaveLength(7);
  });

  it('forgets a released claim, but never a completed one', async () => {
    const ledger = ledgerOf(freshSiteId());
    await ledger.claim({ operationId: 'refused', skillName: 'deleteItem', at });
    await ledger.release('refused');
    expect(await ledger.claim({ operationId: 'refused', skillName: 'deleteItem', at })).toEqual({ state: 'new' });
    await ledger.complete('refused', { ok: true }, at);
    await ledger.release('refused');
    expect(await ledger.claim({ operationId: 'refused', skillName: 'deleteItem', at })).toEqual({
      state: 'completed',
      result: { ok: true },
    });
  });

  it('keeps each site’s operations apart', async () => {
    expect(await ledgerOf(freshSiteId()).claim({ operationId: 'same', skillName: 'createItem', at })).toEqual({ state: 'new' });
    expect(await ledgerOf(freshSiteId()).claim({ operationId: 'same', skillName: 'createItem', at })).toEqual({ state: 'new' });
  });
});
