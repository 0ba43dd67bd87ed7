// The one REST client for test/: signs in, sets up sites, users, members and content, and answers status + body.
// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are whatever the server sent; tests assert their shape.

export interface ApiResponse<T = any> {
  status: number;
  body: T;
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string,
  ) {}

  static async signIn(baseUrl: string, email: string, password: string): Promise<ApiClient> {
    const response = await fetch(`${baseUrl}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (response.status !== 200) throw new Error(`sign-in of ${email} failed: ${response.status} ${await response.text()}`);
    return new ApiClient(baseUrl, ((await response.json()) as { data: { token: string } }).data.token);
  }

  /** The same session, sending its requests to another server process. */
  via(baseUrl: string): ApiClient {
    return new ApiClient(baseUrl, this.token);
  }

  async request<T = any>(
    method: string,
    path: string,
    { body, siteId }: { body?: unknown; siteId?: string } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (siteId) headers['x-site-id'] = siteId;
    const response = await fetch(`${this.baseUrl}/api/v1${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  /** Like `request`, but any status other than `expected` throws with the body. */
  async expect<T = any>(expected: number, method: string, path: string, options: { body?: unknown; siteId?: string } = {}): Promise<T> {
    const response = await this.request<{ data: T }>(method, path, options);
    if (response.status !== expected)
      throw new Error(`${method} ${path}: expected ${expected}, got ${response.status} ${JSON.stringify(response.body)}`);
    return response.body?.data as T;
  }

  /** Like `request`, but any status outside 2xx throws with the body; answers the body's `data`. */
  async send<T = any>(method: string, path: string, options: { body?: unknown; siteId?: string } = {}): Promise<T> {
    const response = await this.request<{ data: T }>(method, path, options);
    if (response.status < 200 || response.status > 299)
      throw new Error(`${method} ${path} failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body?.data as T;
  }

  async createSite(name: string): Promise<string> {
    return (await this.expect<{ id: string }>(201, 'POST', '/sites', { body: { name } })).id;
  }

  createUser(user: { email: string; name: string; password: string }): Promise<{ id: string; email: string }> {
    return this.expect(201, 'POST', '/users', { body: user });
  }

  addMember(siteId: string, userId: string, role: 'admin' | 'editor' | 'viewer', capabilities: string[] = []): Promise<unknown> {
    return this.expect(200, 'PUT', `/members/${userId}`, { siteId, body: { role, capabilities } });
  }

  createCollection(siteId: string, collection: { name: string; label?: string; fields?: unknown[] }): Promise<unknown> {
    return this.send('POST', '/collections', { siteId, body: collection });
  }

  createItem(siteId: string, collection: string, data: Record<string, unknown>): Promise<{ id: string }> {
    return this.send('POST', `/items/${collection}`, { siteId, body: { data } });
  }

  /** A new user who is a member of `siteId` with `role`, signed in. */
  async createMember(siteId: string, role: 'admin' | 'editor' | 'viewer' = 'admin'): Promise<ApiClient & { userId: string }> {
    const email = `${role}-${Math.random().toString(36).slice(2)}@cluster.test`;
    const password = 'member-password-1';
    const user = await this.createUser({ email, password, name: `The ${role}` });
    await this.addMember(siteId, user.id, role);
    const client = await ApiClient.signIn(this.baseUrl, email, password);
    return Object.assign(client, { userId: user.id });
  }

  /** Asks the Copilot; answers the chat response's `data`. */
  chat(siteId: string, message: string): Promise<any> {
    return this.expect(200, 'POST', '/ai/chat', { siteId, body: { message } });
  }
}
