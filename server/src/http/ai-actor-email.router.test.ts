// Display names are free and not unique: approvals and the audit carry the caller's email beside the name, so two
// members called the same are told apart (issue 27, finding 11).
import { ApprovalJson, type AuditEntry } from '@lumibase/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { chat, decide, get, server, siteId, useAiServer } from '../../test-support/ai-route-fixture.js';

useAiServer('ai-actor-email');

type Twin = { id: string; token: string; email: string };
let asker: Twin;
let decider: Twin;

async function memberNamedSam(): Promise<Twin> {
  const member = await server.createMember({ siteId, role: 'admin' });
  const renamed = await server.request('PATCH', `/users/${member.id}`, { token: server.adminToken, body: { name: 'Sam' } });
  expect(renamed.status).toBe(200);
  return member;
}

beforeAll(async () => {
  asker = await memberNamedSam();
  decider = await memberNamedSam();
});

describe('the actor’s email on approvals and the audit', () => {
  it('tells two members named Sam apart by email: requester, decider and every audit entry', async () => {
    const asked = await chat(asker, 'create collection twins_one');
    expect(asked.body.data).toMatchObject({ status: 'pending_approval' });
    const id = asked.body.data.approvalId as string;

    const pending = ApprovalJson.parse((await get(decider, `/ai/approvals/${id}`)).body.data);
    expect(pending.requestedBy).toEqual({ id: asker.id, name: 'Sam', email: asker.email });

    const decided = await decide(decider, id);
    expect(decided.status).toBe(200);
    const approval = ApprovalJson.parse(decided.body.data);
    expect(approval.requestedBy).toEqual({ id: asker.id, name: 'Sam', email: asker.email });
    expect(approval.decidedBy).toEqual({ id: decider.id, name: 'Sam', email: decider.email });

    const audit = await get(decider, '/ai/audit?limit=100');
    expect(audit.status).toBe(200);
    const entries = (audit.body.data as AuditEntry[]).filter((entry) => entry.approvalId === id);
    const emailById = new Map([
      [asker.id, asker.email],
      [decider.id, decider.email],
    ]);
    expect(entries.map((entry) => entry.actor.id)).toEqual(expect.arrayContaining([asker.id, decider.id]));
    for (const entry of entries) expect(entry.actor).toEqual({ id: entry.actor.id, name: 'Sam', email: emailById.get(entry.actor.id) });

    const verified = await get(decider, '/ai/audit/verify');
    expect(verified.body.data).toMatchObject({ valid: true });
  });
});
