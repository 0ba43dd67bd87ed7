// Three API server processes appending one site's events at once: numbered 1..200, no gap, no duplicate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { stopAll } from '../support/processes.js';
import { connectSocket, connected } from '../support/socket-client.js';

const cluster = new Cluster();
let servers: string[];
let superadmin: ApiClient;

beforeAll(async () => {
  await cluster.startMongo();
  servers = await Promise.all([cluster.startServer(), cluster.startServer(), cluster.startServer()]);
  superadmin = await ApiClient.signIn(servers[0]!, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  await cluster.stop();
  await stopAll();
});

describe('site event seqs', () => {
  it('number 200 events appended concurrently by three processes 1..200', async () => {
    const siteId = await superadmin.createSite('Gap-free');
    const editor = await superadmin.createMember(siteId, 'admin');
    await editor.expect(201, 'POST', '/collections', { siteId, body: { name: 'notes', fields: [{ name: 'n', type: 'integer' }] } });
    const created = await Promise.all(
      Array.from({ length: 199 }, (_, index) =>
        editor
          .via(servers[index % servers.length]!)
          .expect<{ id: string }>(201, 'POST', '/items/notes', { siteId, body: { data: { n: index } } }),
      ),
    );

    const socket = connectSocket(servers[1]!, { token: editor.token, siteId, lastSeq: 0 });
    await connected(socket);
    await socket.waitFor((event) => event.payload.seq === 200);
    socket.close();
    expect(socket.events.map((event) => event.payload.seq)).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
    const itemIds = socket.events.filter((event) => event.payload.kind === 'item').map((event) => event.payload.id as string);
    expect(itemIds.sort()).toEqual(created.map((item) => item.id).sort());
    const { meta } = (await editor.request('GET', '/ai/approvals', { siteId })).body as { meta: { seq: number } };
    expect(meta.seq).toBe(200);
  });
});
