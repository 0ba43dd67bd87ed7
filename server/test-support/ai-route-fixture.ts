// The /ai route tests' common ground: the real composed server (decisions through BullMQ to an in-process
// worker), two sites, members of every role, a `posts` collection, one pending approval in the other site,
// and the requests the tests make. Each test file gets its own server (vitest evaluates this module per file).
import { afterAll, beforeAll, expect } from 'vitest';
import type { SkillExecutionQueue } from '../src/approvals/skill-execution.queue.js';
import { countingExecutors, type ExecutorRun } from './counting-executors.js';
import { startTestServer, type TestServer } from './test-server.js';

export type Member = { id: string; token: string };

export let server: TestServer;
export let siteId: string;
export let otherSiteId: string;
export let admin: Member;
export let secondAdmin: Member;
export let editor: Member;
export let viewer: Member;
/** May decide, but lacks schema:write: cannot approve schema changes. */
export let narrowDecider: Member;
export let otherAdmin: Member;
export let otherSiteApprovalId: string;
export const runs: ExecutorRun[] = [];
/** While set, the skill-execution queue refuses jobs, as it does when Redis is down. */
export const mode = { unavailable: false };

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UNKNOWN_ID = 'ffffffffffffffffffffffff';
export const MALFORMED_ID = 'not-an-id';
/** How long decide waits for the worker here; a `slow_` collection takes longer to create, so decide answers 202. */
const DECIDE_WAIT_MS = 1000;
const SLOW_RUN_MS = 2000;

/** Registers the suite's beforeAll/afterAll: one server per test file. */
export function useAiServer(label: string): void {
  beforeAll(async () => {
    server = await startTestServer(
      label,
      { CHAT_RATE_LIMIT_PER_MINUTE: '1000', DECIDE_WAIT_MS: String(DECIDE_WAIT_MS) },
      {
        executors: (real) =>
          countingExecutors(real, runs, (name, args) =>
            name === 'createCollection' && String((args as { name: string }).name).startsWith('slow_') ? SLOW_RUN_MS : 0,
          ),
        queue: (real): SkillExecutionQueue => ({
          ...real,
          add: (job) => (mode.unavailable ? Promise.reject(new Error('Redis is not ready (test)')) : real.add(job)),
        }),
      },
    );
    siteId = await server.createSite('Copilot');
    otherSiteId = await server.createSite('Elsewhere');
    admin = await server.createMember({ siteId, role: 'admin' });
    secondAdmin = await server.createMember({ siteId, role: 'admin' });
    editor = await server.createMember({ siteId, role: 'editor' });
    viewer = await server.createMember({ siteId, role: 'viewer' });
    narrowDecider = await server.createMember({ siteId, role: 'viewer', capabilities: ['approvals:decide'] });
    otherAdmin = await server.createMember({ siteId: otherSiteId, role: 'admin' });
    const posts = await server.request('POST', '/collections', {
      token: server.adminToken,
      siteId,
      body: {
        name: 'posts',
        fields: [
          { name: 'title', type: 'string', required: true },
          { name: 'body', type: 'text' },
        ],
      },
    });
    expect(posts.status).toBe(201);
    const pending = await chat(otherAdmin, 'delete collection posts', undefined, otherSiteId);
    otherSiteApprovalId = pending.body.data.approvalId;
  });
  afterAll(async () => server?.close());
}

export function chat(member: Member, message: unknown, conversationId?: string, site = siteId) {
  return server.request('POST', '/ai/chat', {
    token: member.token,
    siteId: site,
    body: { message, ...(conversationId ? { conversationId } : {}) },
  });
}

export const get = (member: Member, path: string, site = siteId) => server.request('GET', path, { token: member.token, siteId: site });
export const decide = (member: Member, id: string, body: unknown = { decision: 'approved' }, site = siteId) =>
  server.request('POST', `/ai/approvals/${encodeURIComponent(id)}/decide`, { token: member.token, siteId: site, body });

/** A pending approval asked for by `admin` through chat. */
export async function requestApproval(message: string): Promise<string> {
  const response = await chat(admin, message);
  expect(response.body.data).toMatchObject({ status: 'pending_approval' });
  return response.body.data.approvalId as string;
}

export async function createPost(data: Record<string, unknown>): Promise<string> {
  const response = await server.request('POST', '/items/posts', { token: server.adminToken, siteId, body: { data } });
  expect(response.status).toBe(201);
  return response.body.data.id as string;
}

export const runsOf = (operationId: string) => runs.filter((run) => run.operationId === operationId);
