// The deployment key over the wire: made once, then the same for every connection (every server) and every restart.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { deploymentKey } from './deployment-key.store.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase('deployment_key');
});
afterAll(async () => database?.close());

it('is made once: servers asking at the same moment, and later ones, all get the same 32 random bytes', async () => {
  const other = await database.connect();
  const first = await Promise.all([
    deploymentKey(database.connection, 'fingerprints'),
    deploymentKey(other, 'fingerprints'),
    deploymentKey(database.connection, 'fingerprints'),
  ]);
  expect(first[0]).toHaveLength(32);
  for (const key of first) expect(key.equals(first[0]!)).toBe(true);
  const later = await deploymentKey(await database.connect(), 'fingerprints');
  expect(later.equals(first[0]!)).toBe(true);
  expect((await deploymentKey(database.connection, 'another use')).equals(first[0]!)).toBe(false);
});
