// /admin/queues: bull-board for superadmins only — 401 without a session, 403 for a site admin, 200 for a superadmin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { SESSION_COOKIE } from './session-cookie.js';
import { QUEUE_NAMES } from '../infrastructure/queue-table.js';

let server: TestServer;
let adminOfSite: string;

beforeAll(async () => {
  server = await startTestServer('queue-dashboard');
  const siteId = await server.createSite();
  adminOfSite = (await server.createMember({ siteId, role: 'admin' })).token;
});
afterAll(async () => {
  await server.close();
});

function get(path: string, token?: string) {
  return fetch(`${server.baseUrl}${path}`, token ? { headers: { cookie: `${SESSION_COOKIE}=${token}` } } : {});
}

describe('/admin/queues', () => {
  it('answers 401 without a session, for the page and its API alike', async () => {
    for (const path of ['/admin/queues', '/admin/queues/api/queues']) {
      const response = await get(path);
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('UNAUTHENTICATED');
    }
  });

  it('answers 403 for a site admin who is not a superadmin', async () => {
    for (const path of ['/admin/queues', '/admin/queues/api/queues']) {
      const response = await get(path, adminOfSite);
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
    }
  });

  it("shows a superadmin the dashboard and LumiBase's queues", async () => {
    const page = await get('/admin/queues', server.adminToken);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const queues = await get('/admin/queues/api/queues', server.adminToken);
    expect(queues.status).toBe(200);
    const names = ((await queues.json()) as { queues: { name: string }[] }).queues.map((queue) => queue.name).sort();
    expect(names).toEqual([...QUEUE_NAMES].sort());
    expect(names).toContain('skill-execution');
  });

  it("refuses a cookie-authenticated action from another origin (the API's own rule)", async () => {
    const response = await fetch(`${server.baseUrl}/admin/queues/api/queues/skill-execution/pause`, {
      method: 'PUT',
      headers: { cookie: `${SESSION_COOKIE}=${server.adminToken}`, origin: 'https://evil.example.test' },
    });
    expect(response.status).toBe(403);
  });
});
