// GET /ai/audit/verify over HTTP: the site's chain as the API wrote it is valid; tampering behind it is named.
import { AuditVerificationResponse } from '@lumibase/shared';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
let siteId: string;
let editor: { token: string };

beforeAll(async () => {
  server = await startTestServer('audit-verify');
  siteId = await server.createSite('Audit');
  editor = await server.createMember({ siteId, role: 'editor' });
});
afterAll(async () => server?.close());

const admin = () => ({ token: server.adminToken, siteId });
const verify = async () => {
  const response = await server.request('GET', '/ai/audit/verify', admin());
  expect(response.status).toBe(200);
  return AuditVerificationResponse.parse(response.body).data;
};

describe('GET /ai/audit/verify', () => {
  it('needs approvals:decide', async () => {
    expect((await server.request('GET', '/ai/audit/verify', { token: editor.token, siteId })).status).toBe(403);
  });

  it('is valid for the entries the Copilot wrote, lists them with seq and hashes, and names an entry changed in MongoDB', async () => {
    for (const message of ['list collections', 'create collection audited', 'list collections']) {
      expect((await server.request('POST', '/ai/chat', { ...admin(), body: { message } })).status).toBe(200);
    }
    expect(await verify()).toEqual({ valid: true, entries: 3 });
    const listed = await server.request('GET', '/ai/audit?limit=10', admin());
    expect(listed.body.data.map((entry: { seq: number }) => entry.seq)).toEqual([3, 2, 1]);
    expect(listed.body.data[2].prevHash).toBe('0'.repeat(64));
    expect(listed.body.data[1].prevHash).toBe(listed.body.data[2].hash);

    await server.database.connection
      .collection('ai_audit')
      .updateOne({ siteId: new Types.ObjectId(siteId), seq: 2 }, { $set: { 'actor.name': 'Someone else' } });
    expect(await verify()).toEqual({ valid: false, entries: 3, brokenAt: 2 });
  });
});
