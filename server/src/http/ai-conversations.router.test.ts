// /ai/conversations and /ai/audit over HTTP on the real composed server.
import { AuditEntryJson, ConversationJson, ConversationMessageJson } from '@lumibase/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { withoutRequestId } from '../../test-support/test-server.js';
import {
  server,
  siteId,
  otherSiteId,
  admin,
  secondAdmin,
  editor,
  otherAdmin,
  ISO,
  UNKNOWN_ID,
  MALFORMED_ID,
  chat,
  get,
  decide,
  useAiServer,
} from '../../test-support/ai-route-fixture.js';

useAiServer('ai-conversations');

describe('/ai/conversations', () => {
  it('lists only the caller’s own conversations in the site, most recent first, with list meta', async () => {
    const reader = await server.createMember({ siteId, role: 'viewer' });
    const first = (await chat(reader, 'list collections')).body.data.conversationId;
    const second = (await chat(reader, 'list items in posts')).body.data.conversationId;
    await chat(secondAdmin, 'list collections');
    const response = await get(reader, '/ai/conversations');
    expect(response.status).toBe(200);
    const conversations = response.body.data.map((conversation: unknown) => ConversationJson.parse(conversation));
    expect(conversations.map((conversation: ConversationJson) => conversation.id)).toEqual([second, first]);
    expect(conversations[0]).toMatchObject({ userId: reader.id, siteId, title: 'list items in posts' });
    expect(response.body.meta).toEqual({ total: 2, limit: 25, offset: 0 });
    expect(
      (await get(reader, '/ai/conversations?limit=1&offset=1')).body.data.map((conversation: ConversationJson) => conversation.id),
    ).toEqual([first]);
    expect((await get(reader, '/ai/conversations?limit=500')).status).toBe(400);
  });

  it('lists a conversation’s messages oldest first, the assistant’s with its results', async () => {
    const conversationId = (await chat(admin, 'create collection from_history')).body.data.conversationId;
    const response = await get(admin, `/ai/conversations/${conversationId}/messages`);
    expect(response.status).toBe(200);
    const messages = response.body.data.map((message: unknown) => ConversationMessageJson.parse(message));
    expect(messages.map((message: ConversationMessageJson) => [message.role, message.content])).toEqual([
      ['user', 'create collection from_history'],
      ['assistant', expect.stringContaining('needs a human admin')],
    ]);
    expect(messages[1].results).toEqual([
      expect.objectContaining({ status: 'pending_approval', skill: { name: 'createCollection', arguments: { name: 'from_history' } } }),
    ]);
    expect(messages[0].createdAt).toMatch(ISO);
    expect(response.body.meta).toEqual({ total: 2, limit: 25, offset: 0 });
  });

  it('deletes a conversation with its messages (204)', async () => {
    const conversationId = (await chat(admin, 'list collections')).body.data.conversationId;
    const deleted = await server.request('DELETE', `/ai/conversations/${conversationId}`, { token: admin.token, siteId });
    expect(deleted.status).toBe(204);
    expect((await get(admin, `/ai/conversations/${conversationId}/messages`)).status).toBe(403);
    const listed = await get(admin, '/ai/conversations?limit=100');
    expect(listed.body.data.map((conversation: ConversationJson) => conversation.id)).not.toContain(conversationId);
    expect((await server.request('DELETE', `/ai/conversations/${conversationId}`, { token: admin.token, siteId })).status).toBe(403);
  });

  it('answers one 403 for someone else’s conversation, another site’s, an unknown and a malformed id, and deletes none', async () => {
    const theirs = (await chat(secondAdmin, 'list collections')).body.data.conversationId;
    const elsewhere = (await chat(otherAdmin, 'list collections', undefined, otherSiteId)).body.data.conversationId;
    const ids = [theirs, elsewhere, UNKNOWN_ID, MALFORMED_ID];
    const reads = await Promise.all(ids.map((id) => get(admin, `/ai/conversations/${id}/messages`)));
    const deletes = await Promise.all(ids.map((id) => server.request('DELETE', `/ai/conversations/${id}`, { token: admin.token, siteId })));
    const all = [...reads, ...deletes];
    expect(all.map((response) => response.status)).toEqual(Array(8).fill(403));
    expect(new Set(all.map((response) => JSON.stringify(withoutRequestId(response.body)))).size).toBe(1);
    expect((await get(secondAdmin, `/ai/conversations/${theirs}/messages`)).body.meta.total).toBe(2);
    expect((await get(otherAdmin, `/ai/conversations/${elsewhere}/messages`, otherSiteId)).body.meta.total).toBe(2);
  });
});

describe('GET /ai/audit', () => {
  beforeAll(async () => {
    // One entry of every action in the site: executed, denied, approval_requested, approved, rejected, execution_failed.
    await chat(admin, 'list collections');
    await chat(admin, 'create collection Posts');
    const approved = (await chat(admin, 'create collection audited')).body.data.approvalId;
    expect((await decide(admin, approved)).body.data.status).toBe('approved');
    const rejected = (await chat(admin, 'create collection audited_not')).body.data.approvalId;
    expect((await decide(admin, rejected, { decision: 'rejected', reason: 'no' })).body.data.status).toBe('rejected');
    const failed = (await chat(admin, 'delete collection audited_ghosts')).body.data.approvalId;
    expect((await decide(admin, failed)).body.data.status).toBe('pending');
  });

  it('needs approvals:decide', async () => {
    const response = await get(editor, '/ai/audit');
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('FORBIDDEN');
  });

  it('lists the site’s entries newest first, of every action, with list meta', async () => {
    const response = await get(admin, '/ai/audit?limit=100');
    expect(response.status).toBe(200);
    const entries = response.body.data.map((entry: unknown) => AuditEntryJson.parse(entry));
    expect(new Set(entries.map((entry: AuditEntryJson) => entry.action))).toEqual(
      new Set(['executed', 'denied', 'approval_requested', 'approved', 'rejected', 'execution_failed']),
    );
    const times = entries.map((entry: AuditEntryJson) => Date.parse(entry.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(entries.every((entry: AuditEntryJson) => entry.siteId === siteId && ISO.test(entry.createdAt))).toBe(true);
    expect(response.body.meta).toMatchObject({ limit: 100, offset: 0 });
    expect(response.body.meta.total).toBeGreaterThanOrEqual(entries.length);
    const page = await get(admin, '/ai/audit?limit=2&offset=1');
    expect(page.body.data.map((entry: AuditEntryJson) => entry.id)).toEqual(entries.slice(1, 3).map((entry: AuditEntryJson) => entry.id));
    expect(page.body.meta).toEqual({ total: response.body.meta.total, limit: 2, offset: 1 });
    const rejected = entries.find((entry: AuditEntryJson) => entry.action === 'rejected');
    expect(rejected).toMatchObject({
      skillName: expect.any(String),
      approvalId: expect.any(String),
      actor: { id: expect.any(String), name: expect.any(String) },
    });
  });
});
