// What an approval's relay reads to drain the audit entries and notes its status changes owe, counted on the wire.
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AiStores } from '../store/ai/ai-stores.js';
import { pendingApproval } from '../testing/ai-arbitraries.js';
import { freshSiteId } from '../testing/ai-test-database.js';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { createTestStores } from '../testing/test-stores.js';
import { openWatchedConnection, type WatchedConnection } from '../testing/watched-connection.js';
import { settle, startExecution } from './approval-operations.js';

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
});
