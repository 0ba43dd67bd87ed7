// Sets up what a test needs (sites, users, memberships, collections) over the REST API with a bearer token.
import type { Credentials } from './studio.js';

export class StudioApi {
  constructor(
    readonly baseUrl: string,
    readonly token: string,
  ) {}

  static async signIn(baseUrl: string, { email, password }: Credentials): Promise<StudioApi> {
    const response = await fetch(`${baseUrl}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (!response.ok) throw new Error(`login as ${email} failed: ${response.status} ${await response.text()}`);
    const { data } = (await response.json()) as { data: { token: string } };
    return new StudioApi(baseUrl, data.token);
  }

  async request<T = unknown>(method: string, path: string, { body, siteId }: { body?: unknown; siteId?: string } = {}): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (siteId) headers['x-site-id'] = siteId;
    const response = await fetch(`${this.baseUrl}/api/v1${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (!response.ok) throw new Error(`${method} ${path} failed: ${response.status} ${await response.text()}`);
    return (response.status === 204 ? undefined : ((await response.json()) as { data: T }).data) as T;
  }

  createSite(name: string): Promise<{ id: string; name: string }> {
    return this.request('POST', '/sites', { body: { name } });
  }

  createUser(user: { email: string; name: string; password: string }): Promise<{ id: string; email: string }> {
    return this.request('POST', '/users', { body: user });
  }

  addMember(siteId: string, userId: string, role: 'admin' | 'editor' | 'viewer', capabilities: string[] = []): Promise<unknown> {
    return this.request('PUT', `/members/${userId}`, { siteId, body: { role, capabilities } });
  }

  createCollection(siteId: string, collection: { name: string; label?: string; fields?: unknown[] }): Promise<unknown> {
    return this.request('POST', '/collections', { siteId, body: collection });
  }

  createItem(siteId: string, collection: string, data: Record<string, unknown>): Promise<{ id: string }> {
    return this.request('POST', `/items/${collection}`, { siteId, body: { data } });
  }
}
