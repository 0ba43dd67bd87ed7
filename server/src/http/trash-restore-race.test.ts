// Restores of one trash entry at the same instant, over HTTP on the composed server: exactly one puts
// it back (200) and writes the audit entry; the others are told another restore is under way (409),
// or, arriving after it finished, find nothing (403).
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
let siteId: string;
let admin: { id: string; token: string };

beforeAll(async () => {
  server = await startTestServer('trash-restore-race');
  siteId = await server.createSite('Restore race');
  admin = await server.createMember({ siteId, role: 'admin' });
});
afterAll(async () => server?.close());

const call = (method: string, path: string, body?: unknown) =>
  server.request(method, path, { token: admin.token, siteId, ...(body !== undefined ? { body } : {}) });

async function restoredAuditEntries(entryId: string): Promise<number> {
  const entries = await server.database.connection
    .collection('ai_audit')
    .find({ siteId: new Types.ObjectId(siteId), action: 'restored' })
    .toArray();
  return entries.filter((entry) => JSON.parse(entry.detailJson as string).trash.id === entryId).length;
}

describe('POST /trash/:id/restore, several at once', () => {
  it('lets exactly one restore win and writes one audit entry', async () => {
    for (let round = 0; round < 3; round++) {
      const name = `raced_${round}`;
      expect((await call('POST', '/collections', { name, fields: [{ name: 'title', type: 'string' }] })).status).toBe(201);
      expect((await call('POST', `/items/${name}`, { data: { title: 'kept' } })).status).toBe(201);
      expect((await call('DELETE', `/collections/${name}`)).status).toBe(204);
      const listed = await call('GET', '/trash');
      const entry = (listed.body.data as Array<{ id: string; collection: string }>).find((candidate) => candidate.collection === name)!;

      const responses = await Promise.all(Array.from({ length: 4 }, () => call('POST', `/trash/${entry.id}/restore`)));
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.every((status) => status === 200 || status === 409 || status === 403)).toBe(true);
      for (const refused of responses.filter((response) => response.status === 409)) {
        expect(refused.body.error).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/being restored/) });
      }
      expect(await restoredAuditEntries(entry.id)).toBe(1);
      expect((await call('GET', `/collections/${name}`)).status).toBe(200);
      expect((await call('GET', `/items/${name}`)).body.data).toHaveLength(1);
    }
  });
});
