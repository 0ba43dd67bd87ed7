// POST /ai/skills/:name: the Studio runs a safe skill through the Copilot's gate. Over HTTP on the real composed server
// (safe skills run, dangerous ones never, bad input 400, tenancy, policy, audit), plus the capability check of the gate
// behind this route with a caller who lacks the skill's capability (every role preset holds the reads).
import type { AddressInfo } from 'node:net';
import { RunSkillResponse } from '@lumibase/shared';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AISecureHarness } from '../gate/ai-secure-harness.js';
import { freshSiteId, openTestDatabase, type TestDatabase } from '../../test-support/ai-test-database.js';
import { type RecordingExecutors, recordingExecutors } from '../../test-support/recording-executors.js';
import {
  admin,
  editor,
  get,
  type Member,
  otherAdmin,
  otherSiteId,
  server,
  siteId,
  UNKNOWN_ID,
  useAiServer,
  viewer,
} from '../../test-support/ai-route-fixture.js';
import { withoutRequestId } from '../../test-support/test-server.js';
import { RunSkillService } from '../copilot/run-skill.service.js';
import { createAiSkillsRouter } from './ai-skills.router.js';
import { errorMiddleware } from './error-middleware.js';
import { NO_TARGETS } from '../skills/approval-targets.js';

useAiServer('ai-skills');

const run = (member: Member, name: string, body: unknown, site = siteId) =>
  server.request('POST', `/ai/skills/${encodeURIComponent(name)}`, { token: member.token, siteId: site, body });

describe('POST /ai/skills/:name', () => {
  it('answers 401 without credentials', async () => {
    const response = await server.request('POST', '/ai/skills/listCollections', { siteId, body: {} });
    expect(response.status).toBe(401);
  });

  it('runs a safe skill for any member and answers its executed outcome, audited like a Copilot call', async () => {
    const response = await run(viewer, 'listCollections', {});
    expect(response.status).toBe(200);
    const { data } = RunSkillResponse.parse(response.body);
    expect(data).toMatchObject({ status: 'executed', skill: { name: 'listCollections', arguments: {} } });
    expect(JSON.stringify(data)).toContain('posts');

    const suggestion = await run(editor, 'aiSuggestField', { collection: 'posts', description: 'when the post goes live' });
    expect(suggestion.status).toBe(200);
    expect(suggestion.body.data).toMatchObject({ status: 'executed', skill: { name: 'aiSuggestField' } });

    const audit = await get(admin, '/ai/audit?limit=5');
    expect(audit.body.data[0]).toMatchObject({ action: 'executed', skillName: 'aiSuggestField' });
  });

  it('never runs a dangerous skill: 403, no approval, nothing changed', async () => {
    const before = await get(admin, '/ai/approvals');
    const response = await run(admin, 'deleteCollection', { name: 'posts' });
    expect(response.status).toBe(403);
    expect(response.body.error.message).toMatch(/only the Copilot may ask for it/);
    expect((await get(admin, '/collections/posts')).status).toBe(200);
    expect((await get(admin, '/ai/approvals')).body.meta.total).toBe(before.body.meta.total);
  });

  it('answers 404 for an unknown skill and 400 with details for invalid arguments or a body that is not an object', async () => {
    expect((await run(admin, 'makeCoffee', {})).status).toBe(404);
    const invalid = await run(admin, 'aiSuggestField', { collection: 'Not A Name' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('VALIDATION_FAILED');
    expect(invalid.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(
      expect.arrayContaining(['collection', 'description']),
    );
    expect((await run(admin, 'listCollections', [1, 2])).status).toBe(400);
    const malformed = await server.request('POST', '/ai/skills/listCollections', { token: admin.token, siteId, rawBody: '{"a":' });
    expect(malformed.status).toBe(400);
  });

  it('answers 404 for a collection that is not in the caller’s site', async () => {
    const response = await run(otherAdmin, 'aiSuggestField', { collection: 'posts', description: 'a subtitle' }, otherSiteId);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
  });

  it('answers one 403 for a site the caller is not in, an unknown one and a malformed one', async () => {
    const refusals = await Promise.all([otherSiteId, UNKNOWN_ID, 'not-an-id'].map((site) => run(admin, 'listCollections', {}, site)));
    expect(refusals.map((response) => response.status)).toEqual([403, 403, 403]);
    expect(new Set(refusals.map((response) => JSON.stringify(withoutRequestId(response.body)))).size).toBe(1);
  });

  it('follows the site’s policy: a skill turned off answers 403 with the policy’s message', async () => {
    expect((await server.request('PUT', '/ai/policy', { token: admin.token, siteId, body: { skills: { listItems: 'off' } } })).status).toBe(
      200,
    );
    const response = await run(admin, 'listItems', { collection: 'posts' });
    expect(response.status).toBe(403);
    expect(response.body.error.message).toBe('“List items” is turned off for this site');
    await server.request('PUT', '/ai/policy', { token: admin.token, siteId, body: { skills: { listItems: 'auto' } } });
  });
});

describe('POST /ai/skills/:name behind the gate, for a caller without the skill’s capability', () => {
  let database: TestDatabase;
  let recorder: RecordingExecutors;
  let baseUrl: string;
  let close: () => void;
  const site = freshSiteId();

  beforeAll(async () => {
    database = await openTestDatabase();
    recorder = recordingExecutors();
    const harness = new AISecureHarness({ targets: NO_TARGETS, stores: database.stores, executors: recorder.executors });
    const app = express();
    app.use(express.json());
    // What authenticate and tenancy leave on the request: a member of `site` holding content:read only.
    app.use((request, _response, next) => {
      request.context = {
        requestId: 'test',
        log: undefined as never,
        user: { id: 'u-reader', email: 'reader@test', name: 'Reader', isSuperadmin: false },
        site: { id: site, name: 'Site' },
        capabilities: ['content:read'],
      };
      next();
    });
    const skills = createAiSkillsRouter({ skills: new RunSkillService({ harness, rateLimiter: { consume: async () => {} } }) });
    app.use(`/api/v1${skills.path}`, skills.router);
    app.use(errorMiddleware);
    const listening = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listening.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    close = () => listening.close();
  });
  afterAll(async () => {
    close?.();
    await database?.close();
  });

  it('answers 403 naming the missing capability, runs nothing, and audits the denial', async () => {
    const response = await fetch(`${baseUrl}/api/v1/ai/skills/aiSuggestField`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ collection: 'posts', description: 'a subtitle' }),
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/needs schema:read/);
    expect(recorder.calls).toEqual([]);
    const records = await database.stores.forSite(site).audit.list({ limit: 5 });
    expect(records[0]).toMatchObject({ action: 'denied', skillName: 'aiSuggestField' });

    recorder.behaviour = { result: { ok: true } };
    const allowed = await fetch(`${baseUrl}/api/v1/ai/skills/listItems`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ collection: 'posts' }),
    });
    expect(allowed.status).toBe(200);
    expect(recorder.calls.map((call) => [call.name, call.context.siteId])).toEqual([['listItems', site]]);
  });
});
