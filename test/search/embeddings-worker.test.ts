// Scale mode: the API server queues embeddings, the worker process embeds them. Items written while no worker runs
// wait (counted in meta.pending) and become searchable once one starts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { until } from '../support/poll.js';
import { stopAll } from '../support/processes.js';

const cluster = new Cluster();
let server: string;
let admin: ApiClient;

interface SearchBody {
  data: { id: string; collection: string; score: number }[];
  meta: { model: string; pending: number };
}

beforeAll(async () => {
  await cluster.startMongo();
  server = await cluster.startServer();
  admin = await ApiClient.signIn(server, ADMIN_EMAIL, ADMIN_PASSWORD);
}, 180_000);
afterAll(async () => {
  await cluster.stop();
  await stopAll();
});

describe('embeddings across processes', () => {
  it('embeds in the worker process what the server queued, including what was written before the worker started', async () => {
    const siteId = await admin.createSite('Search across processes');
    await admin.send('POST', '/collections', {
      siteId,
      body: { name: 'notes', fields: [{ name: 'title', type: 'string', required: true }] },
    });
    const early = await admin.send<{ id: string }>('POST', '/items/notes', { siteId, body: { data: { title: 'Penguins of Antarctica' } } });
    const search = async (q: string) => (await admin.request<SearchBody>('GET', `/ai/search?q=${encodeURIComponent(q)}`, { siteId })).body;
    // No worker yet: the item waits in the queue.
    expect((await search('penguins')).meta).toEqual({ model: 'local-hash-v1', pending: 1 });

    await cluster.startWorker();
    const found = await until(
      () => search('penguins antarctica'),
      (body) => body.data[0]?.id === early.id && body.meta.pending === 0,
      { timeoutMs: 60_000, what: 'the early item searchable' },
    );
    expect(found.data[0]).toMatchObject({ collection: 'notes', id: early.id });

    const started = Date.now();
    const late = await admin.send<{ id: string }>('POST', '/items/notes', { siteId, body: { data: { title: 'Volcanoes of Iceland' } } });
    await until(
      () => search('volcanoes iceland'),
      (body) => body.data[0]?.id === late.id,
      { timeoutMs: 60_000, intervalMs: 20, what: 'the late item searchable' },
    );
    console.log(`embed-to-searchable latency across processes: ${Date.now() - started} ms`);
  }, 180_000);
});
