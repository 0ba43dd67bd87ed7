// /ai/approvals over HTTP on the real composed server: listing, reading and deciding, through BullMQ to the worker.
import { ApprovalJson } from '@lumibase/shared';
import { describe, expect, it } from 'vitest';
import { isErrorEnvelope, withoutRequestId } from '../../test-support/test-server.js';
import {
  server,
  siteId,
  otherSiteId,
  admin,
  secondAdmin,
  editor,
  viewer,
  narrowDecider,
  otherAdmin,
  otherSiteApprovalId,
  mode,
  ISO,
  UNKNOWN_ID,
  MALFORMED_ID,
  get,
  decide,
  requestApproval,
  runsOf,
  useAiServer,
} from '../../test-support/ai-route-fixture.js';

useAiServer('ai-approvals');

describe('GET /ai/approvals', () => {
  it('lists the site’s pending approvals newest first, with meta.total and meta.seq, to any member', async () => {
    const older = await requestApproval('create collection listed_one');
    const newer = await requestApproval('create collection listed_two');
    const response = await get(viewer, '/ai/approvals');
    expect(response.status).toBe(200);
    const approvals = response.body.data.map((approval: unknown) => ApprovalJson.parse(approval));
    expect(approvals.every((approval: ApprovalJson) => approval.status === 'pending' && approval.siteId === siteId)).toBe(true);
    const ids = approvals.map((approval: ApprovalJson) => approval.id);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    expect(ids).not.toContain(otherSiteApprovalId);
    expect(response.body.meta).toEqual({
      total: approvals.length,
      seq: await server.composed.domain.eventLog.forSite(siteId).currentSeq(),
    });
    expect(response.body.meta.seq).toBeGreaterThanOrEqual(2);
    expect(approvals[0].createdAt).toMatch(ISO);
    expect(response.body.data[0]).not.toHaveProperty('_id');
  });

  it('lists other states with ?status=, and answers 400 for an unknown one', async () => {
    const id = await requestApproval('create collection to_reject');
    await decide(admin, id, { decision: 'rejected', reason: 'not now' });
    const rejected = await get(admin, '/ai/approvals?status=rejected');
    expect(rejected.body.data.map((approval: ApprovalJson) => approval.id)).toContain(id);
    expect(rejected.body.data.every((approval: ApprovalJson) => approval.status === 'rejected')).toBe(true);
    const bogus = await get(admin, '/ai/approvals?status=done');
    expect(bogus.status).toBe(400);
    expect(bogus.body.error.details).toEqual([expect.objectContaining({ path: 'status' })]);
  });
});

describe('GET /ai/approvals/:id', () => {
  it('answers one approval with ISO dates and string ids', async () => {
    const id = await requestApproval('create collection one_approval');
    const response = await get(viewer, `/ai/approvals/${id}`);
    expect(response.status).toBe(200);
    const approval = ApprovalJson.parse(response.body.data);
    expect(approval).toMatchObject({
      id,
      siteId,
      skillName: 'createCollection',
      arguments: { name: 'one_approval' },
      status: 'pending',
      requestedBy: { id: admin.id, name: expect.any(String) },
      attempts: 0,
    });
    expect(approval.createdAt).toMatch(ISO);
  });

  it('answers one 403 for another site’s approval, an unknown id and a malformed id', async () => {
    const responses = await Promise.all([otherSiteApprovalId, UNKNOWN_ID, MALFORMED_ID].map((id) => get(admin, `/ai/approvals/${id}`)));
    expect(responses.map((response) => response.status)).toEqual([403, 403, 403]);
    expect(new Set(responses.map((response) => JSON.stringify(withoutRequestId(response.body)))).size).toBe(1);
  });
});

describe('POST /ai/approvals/:id/decide', () => {
  it('approves: runs the skill once with the stored arguments and answers 200 with the approved approval', async () => {
    const id = await requestApproval('create collection approved_here');
    const response = await decide(secondAdmin, id);
    expect(response.status).toBe(200);
    const approval = ApprovalJson.parse(response.body.data);
    expect(approval).toMatchObject({
      status: 'approved',
      decidedBy: { id: secondAdmin.id },
      attempts: 1,
      result: { name: 'approved_here', fields: [] },
    });
    expect(approval.decidedAt).toMatch(ISO);
    expect(runsOf(id)).toEqual([{ name: 'createCollection', operationId: id, ok: true }]);
    expect((await server.request('GET', '/collections/approved_here', { token: admin.token, siteId })).status).toBe(200);
  });

  it('answers 409 for an approval that is no longer pending', async () => {
    const id = await requestApproval('create collection decided_twice');
    expect((await decide(admin, id)).status).toBe(200);
    for (const body of [{ decision: 'approved' }, { decision: 'rejected' }]) {
      const again = await decide(secondAdmin, id, body);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('CONFLICT');
    }
    expect(runsOf(id)).toHaveLength(1);
  });

  it('rejects with a reason, and the skill never runs', async () => {
    const id = await requestApproval('delete collection posts');
    const response = await decide(admin, id, { decision: 'rejected', reason: 'we still need it' });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ status: 'rejected', reason: 'we still need it', decidedBy: { id: admin.id } });
    expect((await decide(admin, id)).status).toBe(409);
    expect(runsOf(id)).toEqual([]);
    expect((await server.request('GET', '/collections/posts', { token: admin.token, siteId })).status).toBe(200);
  });

  it('answers 200 with the approval pending again and lastError when the run fails, and runs again on the next approve', async () => {
    const id = await requestApproval('delete collection ghosts');
    const failed = await decide(admin, id);
    expect(failed.status).toBe(200);
    expect(failed.body.data).toMatchObject({ status: 'pending', lastError: 'Collection "ghosts" not found', attempts: 1 });
    expect(failed.body.data).not.toHaveProperty('decidedBy');
    const retried = await decide(admin, id);
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ status: 'pending', lastError: 'Collection "ghosts" not found', attempts: 2 });
    // A collection created under that name since the request is another target: the approval expires, nothing runs.
    await server.request('POST', '/collections', { token: admin.token, siteId, body: { name: 'ghosts' } });
    const bound = await decide(admin, id);
    expect(bound.status).toBe(409);
    expect((await get(admin, `/ai/approvals/${id}`)).body.data).toMatchObject({ status: 'expired', reason: 'target_changed', attempts: 2 });
    expect((await server.request('GET', '/collections/ghosts', { token: admin.token, siteId })).status).toBe(200);
  });

  it('answers 202 with the approval executing when the run outlasts the wait, and settles it afterwards', async () => {
    const id = await requestApproval('create collection slow_one');
    const response = await decide(admin, id);
    expect(response.status).toBe(202);
    expect(response.body.data).toMatchObject({ id, status: 'executing', attempts: 1 });
    let status = 'executing';
    for (let poll = 0; poll < 50 && status === 'executing'; poll += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await get(admin, `/ai/approvals/${id}`)).body.data.status;
    }
    expect(status).toBe('approved');
    expect(runsOf(id)).toHaveLength(1);
  });

  it('answers 503 when the executor is unavailable, leaving the approval pending', async () => {
    const id = await requestApproval('create collection queued_later');
    mode.unavailable = true;
    try {
      const response = await decide(admin, id);
      expect(response.status).toBe(503);
      expect(isErrorEnvelope(response.body)).toBe(true);
      expect(response.body.error.code).toBe('UNAVAILABLE');
    } finally {
      mode.unavailable = false;
    }
    expect((await get(admin, `/ai/approvals/${id}`)).body.data).toMatchObject({ status: 'pending' });
    expect(runsOf(id)).toEqual([]);
    expect((await decide(admin, id)).status).toBe(200);
  });

  it('answers 403 without approvals:decide, and without a capability the skill requires; the approval stays pending', async () => {
    const id = await requestApproval('create collection not_yours');
    const withoutDecide = await decide(editor, id);
    expect(withoutDecide.status).toBe(403);
    const withoutSchemaWrite = await decide(narrowDecider, id);
    expect(withoutSchemaWrite.status).toBe(403);
    expect(withoutSchemaWrite.body.error.message).toBe('Deciding needs schema:write');
    expect((await get(admin, `/ai/approvals/${id}`)).body.data.status).toBe('pending');
    expect(runsOf(id)).toEqual([]);
  });

  it('answers one 403 for another site’s approval, an unknown id and a malformed id, and leaves the other site’s alone', async () => {
    const responses = await Promise.all([otherSiteApprovalId, UNKNOWN_ID, MALFORMED_ID].map((id) => decide(admin, id)));
    expect(responses.map((response) => response.status)).toEqual([403, 403, 403]);
    expect(new Set(responses.map((response) => JSON.stringify(withoutRequestId(response.body)))).size).toBe(1);
    expect((await get(otherAdmin, `/ai/approvals/${otherSiteApprovalId}`, otherSiteId)).body.data.status).toBe('pending');
  });

  it('answers 400 for a decision that is not approved or rejected', async () => {
    const id = await requestApproval('create collection bad_decision');
    for (const body of [{ decision: 'maybe' }, {}, { decision: 'approved', reason: 7 }])
      expect((await decide(admin, id, body)).status).toBe(400);
  });

  describe('when two admins approve the same approval at the same moment', () => {
    it('executes the skill once: one 200, one 409', async () => {
      const id = await requestApproval('create collection raced');
      const responses = await Promise.all([decide(admin, id), decide(secondAdmin, id)]);
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
      expect(runsOf(id)).toHaveLength(1);
      const approval = (await get(admin, `/ai/approvals/${id}`)).body.data;
      expect(approval).toMatchObject({ status: 'approved', attempts: 1 });
      const names = (await server.request('GET', '/collections', { token: admin.token, siteId })).body.data.map(
        (collection: { name: string }) => collection.name,
      );
      expect(names.filter((name: string) => name === 'raced')).toHaveLength(1);
    });
  });
});
