// CORS: the configured Studio origin gets credentials; any other origin, and every origin without STUDIO_ORIGIN, gets nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

const STUDIO = 'https://studio.example.test';

function preflight(server: TestServer, origin: string) {
  return fetch(`${server.apiUrl}/collections`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-site-id' },
  });
}

describe('with STUDIO_ORIGIN set', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('cors', { STUDIO_ORIGIN: STUDIO });
  });
  afterAll(async () => {
    await server.close();
  });

  it('lets the Studio origin send credentials, in the preflight and the request itself', async () => {
    const allowed = await preflight(server, STUDIO);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(STUDIO);
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-site-id');
    expect(allowed.headers.get('vary')?.toLowerCase()).toContain('origin');

    const response = await server.request('GET', '/auth/me', { token: server.adminToken, headers: { origin: STUDIO } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(STUDIO);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
  });

  it('gives another origin no CORS header at all', async () => {
    for (const origin of ['https://evil.example.test', 'https://studio.example.test.evil.test', 'http://studio.example.test']) {
      const denied = await preflight(server, origin);
      expect(denied.headers.get('access-control-allow-origin')).toBeNull();
      expect(denied.headers.get('access-control-allow-credentials')).toBeNull();
      const response = await server.request('GET', '/auth/me', { token: server.adminToken, headers: { origin } });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });
});

describe('without STUDIO_ORIGIN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('cors-none');
  });
  afterAll(async () => {
    await server.close();
  });

  it('allows nothing cross-origin', async () => {
    const denied = await preflight(server, STUDIO);
    expect(denied.headers.get('access-control-allow-origin')).toBeNull();
    const response = await server.request('GET', '/auth/me', { token: server.adminToken, headers: { origin: STUDIO } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});
