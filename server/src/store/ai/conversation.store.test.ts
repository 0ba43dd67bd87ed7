import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTEXT_MESSAGES } from './conversation.store.js';
import { freshSiteId, openTestDatabase, type TestDatabase } from '../../../test-support/ai-test-database.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

const at = (minute: number) => new Date(Date.UTC(2025, 0, 1, 0, minute));
const iso = (minute: number) => at(minute).toISOString();

describe('ConversationStore', () => {
  it('creates a conversation and finds it in its own site only', async () => {
    const conversations = database.stores.forSite(freshSiteId()).conversations;
    const created = await conversations.create({ userId: 'u1', title: 'Schema work', at: at(0) });
    expect(await conversations.get(created.id)).toEqual(created);
    expect(await conversations.get('malformed')).toBeNull();
    expect(await database.stores.forSite(freshSiteId()).conversations.get(created.id)).toBeNull();
  });

  it('keeps an assistant message’s token usage', async () => {
    const conversations = database.stores.forSite(freshSiteId()).conversations;
    const { id } = await conversations.create({ userId: 'u1', title: 'usage', at: at(0) });
    await conversations.appendMessage(id, {
      role: 'assistant',
      content: 'done',
      usage: { inputTokens: 1200, outputTokens: 34 },
      createdAt: iso(1),
    });
    await conversations.appendMessage(id, { role: 'user', content: 'thanks', createdAt: iso(2) });
    const [assistant, user] = await conversations.listMessages(id);
    expect(assistant!.usage).toEqual({ inputTokens: 1200, outputTokens: 34 });
    expect(user).not.toHaveProperty('usage');
  });

  it('lists a user’s conversations, most recently active first', async () => {
    const conversations = database.stores.forSite(freshSiteId()).conversations;
    const first = await conversations.create({ userId: 'u1', title: 'first', at: at(0) });
    const second = await conversations.create({ userId: 'u1', title: 'second', at: at(1) });
    await conversations.create({ userId: 'u2', title: 'someone else', at: at(2) });
    await conversations.appendMessage(first.id, { role: 'user', content: 'list collections', createdAt: iso(5) });
    const listed = await conversations.listForUser('u1');
    expect(listed.map((conversation) => conversation.id)).toEqual([first.id, second.id]);
    expect(listed[0]!.updatedAt).toEqual(iso(5));
    expect(await conversations.countForUser('u1')).toBe(2);
  });

  it('keeps messages with their outcomes and hands the planner the latest 20, oldest first', async () => {
    const conversations = database.stores.forSite(freshSiteId()).conversations;
    const { id } = await conversations.create({ userId: 'u1', title: 't', at: at(0) });
    for (let index = 0; index < 25; index += 1) {
      await conversations.appendMessage(id, { role: index % 2 ? 'assistant' : 'user', content: `m${index}`, createdAt: iso(index) });
    }
    const outcome = {
      status: 'pending_approval' as const,
      skill: { name: 'deleteItem', arguments: { $x: -0 } },
      approvalId: 'a',
      message: 'queued',
    };
    const withResults = await conversations.appendMessage(id, {
      role: 'assistant',
      content: 'queued',
      results: [outcome],
      createdAt: iso(30),
    });
    const latest = await conversations.latestMessages(id);
    expect(latest).toHaveLength(CONTEXT_MESSAGES);
    expect(latest.map((message) => message.content)).toEqual([...Array.from({ length: 19 }, (_, index) => `m${index + 6}`), 'queued']);
    expect(latest.at(-1)).toEqual(withResults);
    expect(await conversations.countMessages(id)).toBe(26);
    expect((await conversations.listMessages(id, { limit: 2 })).map((message) => message.content)).toEqual(['m0', 'm1']);
  });

  it('deletes a conversation with its messages, and only in its own site', async () => {
    const siteId = freshSiteId();
    const conversations = database.stores.forSite(siteId).conversations;
    const { id } = await conversations.create({ userId: 'u1', title: 't', at: at(0) });
    await conversations.appendMessage(id, { role: 'user', content: 'hi', createdAt: iso(1) });
    expect(await database.stores.forSite(freshSiteId()).conversations.delete(id)).toBe(false);
    expect(await conversations.countMessages(id)).toBe(1);
    expect(await conversations.delete(id)).toBe(true);
    expect(await conversations.get(id)).toBeNull();
    expect(await conversations.countMessages(id)).toBe(0);
    expect(await conversations.delete(id)).toBe(false);
  });

  it('tells which of several message ids it holds, in one read, in its own site only', async () => {
    const site = database.stores.forSite(freshSiteId());
    const { id } = await site.conversations.create({ userId: 'u1', title: 'held', at: at(0) });
    const kept = 'aaaaaaaaaaaaaaaaaaaaaaaa';
    await site.conversations.appendMessageOnce(kept, id, { role: 'assistant', content: 'noted', createdAt: iso(1) });
    const absent = 'bbbbbbbbbbbbbbbbbbbbbbbb';
    expect(await site.conversations.heldMessages([kept, absent, 'malformed'])).toEqual(new Set([kept]));
    expect(await site.conversations.heldMessages([])).toEqual(new Set());
    expect(await database.stores.forSite(freshSiteId()).conversations.heldMessages([kept])).toEqual(new Set());
  });
});
