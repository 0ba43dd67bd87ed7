// Two API server processes writing one site's Copilot audit at once: the chain stays linear, gap-free and valid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { stopAll } from '../support/processes.js';

const cluster = new Cluster();
let servers: string[];
let superadmin: ApiClient;

beforeAll(async () => {
  await cluster.startMongo();
  servers = await Promise.all([cluster.startServer(), cluster.startServer()]);
  superadmin = await ApiClient.signIn(servers[0]!, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  await cluster.stop();
  await stopAll();
});

describe('the audit chain across processes', () => {
  it('numbers 40 concurrent Copilot actions from two servers 1..40, each linked to the one before', async () => {
    const siteId = await superadmin.createSite('Audit chain');
    const admin = await superadmin.createMember(siteId, 'admin');
    await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        admin.via(servers[index % 2]!).expect(200, 'POST', '/ai/chat', { siteId, body: { message: 'list collections' } }),
      ),
    );
    const verification = await admin.expect<{ valid: boolean; entries: number }>(200, 'GET', '/ai/audit/verify', { siteId });
    expect(verification).toEqual({ valid: true, entries: 40 });
    const listed = (await admin.request('GET', '/ai/audit?limit=100', { siteId })).body as {
      data: { seq: number; prevHash: string; hash: string }[];
    };
    const chain = [...listed.data].sort((a, b) => a.seq - b.seq);
    expect(chain.map((entry) => entry.seq)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    for (let index = 1; index < chain.length; index++) expect(chain[index]!.prevHash).toBe(chain[index - 1]!.hash);
  });
});
