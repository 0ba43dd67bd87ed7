// What an approval's relay reads to drain the audit entries and notes its status changes owe, counted on the wire.
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AiStores } from './ai-stores.js';
import { pendingApproval } from '../../../test-support/ai-arbitraries.js';
import { freshSiteId } from '../../../test-support/ai-test-database.js';
import { openTestDatabase, type TestDatabase } from '../../../test-support/test-database.js';
import { createTestStores } from '../../../test-support/test-stores.js';
import { openWatchedConnection, type WatchedConnection } from '../../../test-support/watched-connection.js';
import { settle, startExecution } from '../../approvals/approval-operations.js';

let database: TestDatabase;
let watched: WatchedConnection;
let stores: AiStores;

beforeAll(async () => {
  database = await openTestDatabase('owed-approval-work');
  watched = await openWatchedConnection(database);
  stores = (await createTestStores(watched.connection)).aiStores;
});
afterAll(async () => {
  await watched?.close();
  await database?.close();
});

const actor = { id: 'u_admin', name: 'Admin' };
const approvalReads = (commands: string[]) => commands.filter((command) => command === 'find ai_approvals');

describe('the relay of an approval status change', () => {
  it('reads nothing back when the change owes no audit entry or note', async () => {
    const { approvals } = stores.forSite(freshSiteId());
    const approval = await approvals.insert(pendingApproval({ skillName: 'createCollection', arguments: { name: 'posts' } }));
    watched.take();
    const executing = await startExecution(approvals, approval, { actor, at: new Date() });
    expect(executing?.status).toBe('executing');
    // No read at all: the transition starts from the approval its caller read, and the (empty) owed work needs none.
    expect(approvalReads(watched.take())).toEqual([]);
  });

  it('lands what a change owes from the document as written (no read of it back), once, and clears it', async () => {
    const siteId = freshSiteId();
    const { approvals, audit } = stores.forSite(siteId);
    const approval = await approvals.insert(pendingApproval({ skillName: 'createCollection', arguments: { name: 'posts' } }));
    const executing = await startExecution(approvals, approval, { actor, at: new Date() });
    watched.take();
    const approved = await settle(approvals, executing!, { outcome: { ok: true, result: { created: true } }, at: new Date() });
    expect(approved?.status).toBe('approved');
    // No read: the transition starts from the approval the worker holds, the owed entry from the written document.
    expect(approvalReads(watched.take())).toEqual([]);
    expect((await audit.ofApproval(approval.id)).map((entry) => entry.action)).toEqual(['approved']);
    const stored = await watched.connection.collection('ai_approvals').findOne({ _id: new Types.ObjectId(approval.id) });
    expect(stored?.owedAudit ?? []).toEqual([]);
    expect((await audit.verify()).valid).toBe(true);
  });

  it('lands its audit entry and its note side by side, the note not waiting for the audit chain', async () => {
    const siteId = freshSiteId();
    const { approvals, audit, conversations } = stores.forSite(siteId);
    const conversation = await conversations.create({ userId: 'u1', title: 'Tidy up', at: new Date() });
    const approval = await approvals.insert(
      pendingApproval({ context: { message: 'delete collection posts', conversationId: conversation.id } }),
    );
    const executing = await startExecution(approvals, approval, { actor, at: new Date() });
    watched.take();
    await settle(approvals, executing!, { outcome: { ok: true, result: { deleted: 'posts' } }, at: new Date() });
    const sent = watched.take();
    // The note's insert goes out before the audit entry's head update is back: one after the other, it would follow it.
    expect(sent.indexOf('insert ai_messages')).toBeGreaterThan(-1);
    expect(sent.indexOf('insert ai_messages')).toBeLessThan(sent.indexOf('findAndModify ai_audit_heads'));
    expect((await audit.ofApproval(approval.id)).map((entry) => entry.action)).toEqual(['approved']);
    const notes = await conversations.listMessages(conversation.id, { limit: 10 });
    expect(notes.map((note) => note.content)).toEqual([expect.stringContaining('was approved and ran')]);
    const stored = await watched.connection.collection('ai_approvals').findOne({ _id: new Types.ObjectId(approval.id) });
    expect([...(stored?.owedAudit ?? []), ...(stored?.owedNotes ?? [])]).toEqual([]);
    expect((await audit.verify()).valid).toBe(true);
  });
});
