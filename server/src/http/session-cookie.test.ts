// The session cookie behind an https PUBLIC_URL (a TLS proxy that is not on loopback: requests arrive as plain http)
// is Secure and host-only (`__Host-`), and plain-http loopback development still signs in with the bare cookie.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from '../../test-support/test-server.js';

let proxied: TestServer;
let local: TestServer;

beforeAll(async () => {
  [proxied, local] = await Promise.all([
    startTestServer('cookie-https', { PUBLIC_URL: 'https://cms.example.test' }),
    startTestServer('cookie-http'),
  ]);
});
afterAll(async () => {
  await Promise.all([proxied?.close(), local?.close()]);
});

/** Signs in over plain http, as the hop from a TLS proxy (or a loopback browser in development) arrives. */
async function signIn(server: TestServer) {
  const response = await server.request('POST', '/auth/login', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  expect(response.status).toBe(200);
  const [setCookie] = response.headers.getSetCookie();
  return { setCookie: setCookie ?? '', token: response.body.data.token as string };
}

describe('behind PUBLIC_URL=https://…', () => {
  it('sets a Secure, host-only __Host- cookie on a request that reached the server as plain http, and signs in with it', async () => {
    const { setCookie, token } = await signIn(proxied);
    expect(setCookie.startsWith(`__Host-lumibase_session=${token};`)).toBe(true);
    expect(setCookie).toMatch(/;\s*Secure/i);
    expect(setCookie).toMatch(/;\s*Path=\/(;|$)/);
    expect(setCookie).not.toMatch(/Domain=/i);
    expect(setCookie).toMatch(/HttpOnly/i);
    const me = await proxied.request('GET', '/auth/me', { headers: { cookie: `__Host-lumibase_session=${token}` } });
    expect(me.status).toBe(200);
    // A bare cookie (one a sibling host could have set) is not read.
    const bare = await proxied.request('GET', '/auth/me', { headers: { cookie: `lumibase_session=${token}` } });
    expect(bare.status).toBe(401);
  });

  it('clears the same cookie on logout', async () => {
    const { token } = await signIn(proxied);
    const out = await proxied.request('POST', '/auth/logout', { token });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie()[0]).toMatch(/^__Host-lumibase_session=;.*Secure/i);
  });
});

describe('plain-http loopback development (no PUBLIC_URL)', () => {
  it('keeps the bare cookie without Secure, and signs in with it', async () => {
    const { setCookie, token } = await signIn(local);
    expect(setCookie.startsWith(`lumibase_session=${token};`)).toBe(true);
    expect(setCookie).not.toMatch(/;\s*Secure/i);
    const me = await local.request('GET', '/auth/me', { headers: { cookie: `lumibase_session=${token}` } });
    expect(me.status).toBe(200);
  });
});
