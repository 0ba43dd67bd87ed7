// POST /auth/login, POST /auth/logout, GET /auth/me over HTTP, including cookies, the Origin check and the limiter.
import { LoginResponse, MeResponse } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, isErrorEnvelope, startTestServer, type TestServer } from '../../test-support/test-server.js';

const STUDIO = 'https://studio.example.test';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer('auth-router', { STUDIO_ORIGIN: STUDIO });
});
afterAll(async () => server?.close());

/** Every test that fails logins on purpose does it from its own address, so the per-address count is its own. */
let addressCounter = 1;
const freshAddress = () => `10.0.${Math.floor(addressCounter / 250)}.${(addressCounter++ % 250) + 1}`;

function sessionCookie(headers: Headers): string | undefined {
  return headers.getSetCookie().find((cookie) => cookie.startsWith('lumibase_session='));
}

describe('POST /auth/login', () => {
  it('answers the token, its expiry, the user and their sites, and sets an httpOnly SameSite=Lax cookie', async () => {
    const siteId = await server.createSite('Login site');
    const member = await server.createMember({ siteId, role: 'viewer' });
    const response = await server.request('POST', '/auth/login', {
      body: { email: member.email.toUpperCase(), password: 'member-password' },
    });
    expect(response.status).toBe(200);
    const body = LoginResponse.parse(response.body);
    expect(body.data.user).toEqual({ id: member.id, email: member.email, name: expect.any(String), isSuperadmin: false });
    expect(body.data.sites).toEqual([{ id: siteId, name: 'Login site', role: 'viewer', capabilities: ['schema:read', 'content:read'] }]);
    expect(new Date(body.data.expiresAt).getTime()).toBeGreaterThan(Date.now() + 167 * 3_600_000);
    const cookie = sessionCookie(response.headers);
    expect(cookie).toContain(`lumibase_session=${body.data.token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it('answers 401 for a wrong password and for an unknown email, with the same message', async () => {
    const address = freshAddress();
    const headers = { 'x-forwarded-for': address };
    const wrong = await server.request('POST', '/auth/login', { body: { email: ADMIN_EMAIL, password: 'not-it' }, headers });
    const unknown = await server.request('POST', '/auth/login', { body: { email: 'nobody@example.test', password: 'not-it' }, headers });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error.code).toBe('UNAUTHENTICATED');
    expect(unknown.body.error.message).toBe(wrong.body.error.message);
    expect(sessionCookie(wrong.headers)).toBeUndefined();
  });

  it.each([
    ['a missing email', { password: 'x' }, 'email'],
    ['a malformed email', { email: 'not-an-email', password: 'x' }, 'email'],
    ['a missing password', { email: 'a@b.test' }, 'password'],
    ['a password of the wrong type', { email: 'a@b.test', password: 12345678 }, 'password'],
    ['an unknown field', { email: 'a@b.test', password: 'x', remember: true }, 'remember'],
  ])('answers 400 for %s', async (_label, body, path) => {
    const response = await server.request('POST', '/auth/login', { body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
  });

  it('answers 400 for malformed JSON and 413 for a body over the limit', async () => {
    const malformed = await server.request('POST', '/auth/login', { rawBody: '{"email": ' });
    expect(malformed.status).toBe(400);
    expect(isErrorEnvelope(malformed.body)).toBe(true);
    const large = await server.request('POST', '/auth/login', { body: { email: 'a@b.test', password: 'x'.repeat(300_000) } });
    expect(large.status).toBe(413);
    expect(large.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('failed sign-ins', () => {
  it('answer 429 after 10 failures for one email, even with the right password, while other emails still sign in', async () => {
    const member = await server.createMember({});
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const failed = await server.request('POST', '/auth/login', {
        body: { email: member.email, password: 'wrong' },
        headers: { 'x-forwarded-for': freshAddress() },
      });
      expect(failed.status).toBe(401);
    }
    const blocked = await server.request('POST', '/auth/login', {
      body: { email: member.email, password: 'member-password' },
      headers: { 'x-forwarded-for': freshAddress() },
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    await expect(server.login(ADMIN_EMAIL, ADMIN_PASSWORD, freshAddress())).resolves.toEqual(expect.any(String));
  });

  it('answer 429 after 10 failures from one address, whatever the email', async () => {
    const address = freshAddress();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const failed = await server.request('POST', '/auth/login', {
        body: { email: `guess${attempt}@example.test`, password: 'wrong' },
        headers: { 'x-forwarded-for': address },
      });
      expect(failed.status).toBe(401);
    }
    const blocked = await server.request('POST', '/auth/login', {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      headers: { 'x-forwarded-for': address },
    });
    expect(blocked.status).toBe(429);
  });

  it('are counted before the password is checked: of 30 wrong passwords sent at once, at most 10 are checked', async () => {
    const member = await server.createMember({});
    const attempts = await Promise.all(
      Array.from({ length: 30 }, () =>
        server.request('POST', '/auth/login', {
          body: { email: member.email, password: 'wrong' },
          headers: { 'x-forwarded-for': freshAddress() },
        }),
      ),
    );
    const statuses = attempts.map((attempt) => attempt.status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - statuses.filter((status) => status === 401).length);
    const blocked = await server.request('POST', '/auth/login', {
      body: { email: member.email, password: 'member-password' },
      headers: { 'x-forwarded-for': freshAddress() },
    });
    expect(blocked.status).toBe(429);
  });

  it('do not count successful sign-ins', async () => {
    const address = freshAddress();
    for (let attempt = 0; attempt < 12; attempt += 1) await server.login(ADMIN_EMAIL, ADMIN_PASSWORD, address);
    await expect(server.login(ADMIN_EMAIL, ADMIN_PASSWORD, address)).resolves.toEqual(expect.any(String));
  });
});

describe('GET /auth/me', () => {
  it('answers the user and their sites for a Bearer token', async () => {
    const siteId = await server.createSite('Me site');
    const member = await server.createMember({ siteId, role: 'editor', capabilities: ['users:write'] });
    const response = await server.request('GET', '/auth/me', { token: member.token });
    expect(response.status).toBe(200);
    const body = MeResponse.parse(response.body);
    expect(body.data.user.id).toBe(member.id);
    expect(body.data.sites).toEqual([
      { id: siteId, name: 'Me site', role: 'editor', capabilities: ['schema:read', 'content:read', 'content:write', 'users:write'] },
    ]);
  });

  it('lists every site for a superadmin, as superadmin holding *', async () => {
    const siteId = await server.createSite('Another');
    const response = await server.request('GET', '/auth/me', { token: server.adminToken });
    expect(response.body.data.user.isSuperadmin).toBe(true);
    expect(response.body.data.sites).toContainEqual({ id: siteId, name: 'Another', role: 'superadmin', capabilities: ['*'] });
    // The Studio's Copilot intro says what the planner understands (the test server runs the echo planner).
    expect(response.body.data.copilot).toEqual({ provider: 'echo' });
    expect(response.body.data.sites.every((site: { role: string }) => site.role === 'superadmin')).toBe(true);
  });

  it('accepts the session cookie', async () => {
    const token = await server.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const response = await server.request('GET', '/auth/me', { headers: { cookie: `lumibase_session=${token}` } });
    expect(response.status).toBe(200);
    expect(response.body.data.user.email).toBe(ADMIN_EMAIL);
  });

  it.each([
    ['no credentials', {}],
    ['an unknown token', { authorization: 'Bearer not-a-real-token' }],
    ['a malformed Authorization header', { authorization: 'Basic YWRtaW46YWRtaW4=' }],
    ['an unknown cookie', { cookie: 'lumibase_session=nope' }],
  ])('answers 401 for %s', async (_label, headers) => {
    const response = await server.request('GET', '/auth/me', { headers });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('UNAUTHENTICATED');
    expect(isErrorEnvelope(response.body)).toBe(true);
  });

  it('gives 401 precedence over a missing site header, a malformed body and an unknown route', async () => {
    for (const [method, path, rawBody] of [
      ['GET', '/collections', undefined],
      ['POST', '/collections', '{"name": '],
      ['GET', '/no-such-route', undefined],
      ['POST', '/sites', 'x'.repeat(300_000)],
    ] as const) {
      const response = await server.request(method, path, rawBody === undefined ? {} : { rawBody });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe('cookie-authenticated changes', () => {
  it('are refused with 403 without an Origin or from a foreign one, and accepted from the server or the Studio', async () => {
    const token = await server.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const cookie = `lumibase_session=${token}`;
    const create = (headers: Record<string, string>) =>
      server.request('POST', '/sites', { body: { name: 'From a browser' }, headers: { cookie, ...headers } });
    expect((await create({})).status).toBe(403);
    expect((await create({ origin: 'https://evil.example' })).status).toBe(403);
    expect((await create({ origin: server.baseUrl })).status).toBe(201);
    expect((await create({ origin: STUDIO })).status).toBe(201);
    // Bearer tokens are not sent by browsers on their own: no Origin needed.
    expect((await server.request('POST', '/sites', { token, body: { name: 'From a script' } })).status).toBe(201);
  });

  it('take the scheme of the own origin from a TLS-terminating proxy on loopback (X-Forwarded-Proto)', async () => {
    const token = await server.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const httpsOrigin = server.baseUrl.replace(/^http:/, 'https:');
    const create = (headers: Record<string, string>) =>
      server.request('POST', '/sites', { body: { name: 'Behind a proxy' }, headers: { cookie: `lumibase_session=${token}`, ...headers } });
    expect((await create({ origin: httpsOrigin, 'x-forwarded-proto': 'https' })).status).toBe(201);
    expect((await create({ origin: httpsOrigin })).status).toBe(403);
  });
});

describe('POST /auth/logout', () => {
  it('answers 204, clears the cookie, stops the token working and announces the revoked session', async () => {
    const member = await server.createMember({});
    const revoked: Array<{ sessionId: string; userId: string }> = [];
    const unsubscribe = server.composed.services.events.on('session-revoked', (event) => revoked.push(event));
    const response = await server.request('POST', '/auth/logout', { token: member.token });
    unsubscribe();
    expect(response.status).toBe(204);
    expect(sessionCookie(response.headers)).toMatch(/lumibase_session=;/);
    expect((await server.request('GET', '/auth/me', { token: member.token })).status).toBe(401);
    expect(revoked).toEqual([{ sessionId: expect.any(String), userId: member.id }]);
  });

  it('answers 401 without credentials', async () => {
    expect((await server.request('POST', '/auth/logout')).status).toBe(401);
  });
});

describe('password hashing under load', () => {
  let costly: TestServer;
  beforeAll(async () => {
    costly = await startTestServer('auth-hash-bound', {}, { productionScrypt: true });
  });
  afterAll(async () => costly?.close());

  it('runs a bounded number of hashes: 40 sign-ins at once get 401 or 429 with Retry-After, never an unbounded queue', {
    timeout: 120_000,
  }, async () => {
    const attempts = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        costly.request('POST', '/auth/login', {
          body: { email: `load${index}@example.test`, password: 'wrong' },
          headers: { 'x-forwarded-for': `10.9.0.${index + 1}` },
        }),
      ),
    );
    const refused = attempts.filter((attempt) => attempt.status === 429);
    expect(attempts.every((attempt) => attempt.status === 401 || attempt.status === 429)).toBe(true);
    expect(refused.length).toBeGreaterThan(0);
    for (const attempt of refused) {
      expect(attempt.body.error.code).toBe('RATE_LIMITED');
      expect(Number(attempt.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // The refused were never checked: they do not count against their email or address.
    const retried = refused[0]!;
    const index = attempts.indexOf(retried);
    const again = await costly.request('POST', '/auth/login', {
      body: { email: `load${index}@example.test`, password: 'wrong' },
      headers: { 'x-forwarded-for': `10.9.0.${index + 1}` },
    });
    expect(again.status).toBe(401);
  });
});
