import type { ApprovalJson, ChatResponse } from '@lumibase/shared';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import fc from 'fast-check';
import { SvelteMap } from 'svelte/reactivity';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error.js';
import { COPILOT_HISTORY_MAX, CopilotState } from '../../state/copilot.svelte.js';
import { approvalFixture, executedReply, pendingReply } from '../../testing/fixtures.js';
import CopilotPanel from './CopilotPanel.svelte';

afterEach(() => cleanup());

type Chat = ConstructorParameters<typeof CopilotState>[0]['chat'];

function renderPanel(
  chat: Chat,
  {
    approvalOf = (_id: string): ApprovalJson | undefined => undefined,
    onclose = vi.fn(),
    collections = [] as { name: string; fields?: { name: string }[] }[],
  } = {},
) {
  const copilot = new CopilotState({ chat });
  const view = render(CopilotPanel, { props: { copilot, approvalOf, onclose, canReview: () => true, collections } });
  const input = screen.getByLabelText('Message the Copilot') as HTMLTextAreaElement;
  return { ...view, copilot, input, onclose };
}

async function type(input: HTMLTextAreaElement, text: string, { shift = false } = {}) {
  await fireEvent.input(input, { target: { value: text } });
  await fireEvent.keyDown(input, { key: 'Enter', shiftKey: shift });
}

/** Lets an immediately answered message finish: the reply and the input's re-enabling are a few microtasks away. */
async function settle() {
  for (let turn = 0; turn < 8; turn += 1) await Promise.resolve();
}

/** The thread as rendered: each message's role and its words. */
function thread(container: HTMLElement): { role: string; text: string }[] {
  return [...container.querySelectorAll<HTMLElement>('ol[aria-label="Conversation"] > li')].map((item) => ({
    role: item.dataset.role ?? '',
    text: item.querySelector('.text')?.textContent ?? '',
  }));
}

describe('CopilotPanel', () => {
  // Property 13: after any sequence of messages, the panel holds the last min(n, 50) in order.
  it('holds the last min(n, 50) messages, in order, after any sequence of sends, replies and errors', async () => {
    const turn = fc.record({
      text: fc.oneof(
        { weight: 9, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }).map((text) => text.replace(/\r/g, '')) },
        { weight: 1, arbitrary: fc.constantFrom('', '   ', '\n\t ') },
      ),
      answer: fc.constantFrom('reply', 'reply', 'reply', 'rate-limited', 'network'),
    });
    let overflowing = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(turn, { maxLength: 40, size: 'max' }), async (turns) => {
        cleanup();
        let answered = 0;
        const answers = turns.filter(({ text }) => text.trim() !== '').map(({ answer }) => answer);
        const chat: Chat = async () => {
          const index = answered++;
          if (answers[index] === 'rate-limited') throw new ApiError({ status: 429, code: 'RATE_LIMITED', message: 'Slow down' });
          if (answers[index] === 'network') throw new ApiError({ status: 0, code: 'NETWORK', message: 'offline' });
          return executedReply(`reply ${index}`);
        };
        const { container, input } = renderPanel(chat);

        const expected: { role: string; text: string }[] = [];
        for (const { text, answer } of turns) {
          await type(input, text);
          await settle();
          if (text.trim() === '') continue;
          expected.push({ role: 'user', text });
          const index = expected.filter(({ role }) => role === 'user').length - 1;
          expected.push({
            role: 'assistant',
            text:
              answer === 'reply'
                ? `reply ${index}`
                : answer === 'network'
                  ? "Can't reach the server, so your message was not sent. Check your connection and try again."
                  : 'You are sending messages faster than the Copilot allows. Wait a minute, then try again.',
          });
        }
        expect(thread(container)).toEqual(expected.slice(-COPILOT_HISTORY_MAX));
        if (expected.length > COPILOT_HISTORY_MAX) overflowing += 1;
      }),
      // Shrinking re-renders whole conversations thousands of times (minutes); the first counterexample is readable enough.
      { numRuns: 100, endOnFailure: true },
    );
    // The runs must reach past the limit, or the property says nothing about dropping the oldest.
    expect(overflowing).toBeGreaterThan(10);
  }, 60_000);

  it('sends on Enter, adds a line on Shift+Enter, and disables the input while a message is in flight', async () => {
    let answer!: (reply: ChatResponse) => void;
    const chat = vi.fn<Chat>(() => new Promise((resolve) => (answer = resolve)));
    const { input, container } = renderPanel(chat);
    await type(input, 'list collections', { shift: true });
    expect(chat).not.toHaveBeenCalled();
    await type(input, 'list collections');
    expect(chat).toHaveBeenCalledExactlyOnceWith({ message: 'list collections', conversationId: undefined });
    expect(input.disabled).toBe(true);
    expect(input.value).toBe('');
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    answer(executedReply('Done.', 'conv-9'));
    await waitFor(() => expect(input.disabled).toBe(false));
    expect(thread(container)).toEqual([
      { role: 'user', text: 'list collections' },
      { role: 'assistant', text: 'Done.' },
    ]);
  });

  it('continues the conversation with the id of the first reply', async () => {
    const chat = vi.fn<Chat>(async () => executedReply('ok', 'conv-42'));
    const { input } = renderPanel(chat);
    await type(input, 'first');
    await settle();
    await type(input, 'second');
    await settle();
    expect(chat.mock.calls.map(([request]) => request)).toEqual([
      { message: 'first', conversationId: undefined },
      { message: 'second', conversationId: 'conv-42' },
    ]);
  });

  it('closes on Esc', async () => {
    const { input, onclose } = renderPanel(vi.fn<Chat>());
    await fireEvent.keyDown(input, { key: 'Escape' });
    expect(onclose).toHaveBeenCalledOnce();
  });

  it('tells a 400 in the thread and gives the words back to send again', async () => {
    const chat = vi.fn<Chat>(async () => {
      throw new ApiError({
        status: 400,
        code: 'VALIDATION_FAILED',
        message: 'Invalid',
        details: [{ path: 'message', message: 'Too big' }],
      });
    });
    const { input } = renderPanel(chat);
    await type(input, 'x'.repeat(2001));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/1 to 2000 characters/));
    expect(input.value).toBe('x'.repeat(2001));
  });

  it('renders executed results readably: a list of collections, a created item', async () => {
    const collections = {
      status: 'executed' as const,
      skill: { name: 'listCollections', arguments: {} },
      data: { collections: [{ name: 'posts', label: 'Posts', fields: [{ name: 'title', type: 'string' }] }] },
    };
    const item = {
      status: 'executed' as const,
      skill: { name: 'createItem', arguments: { collection: 'posts', data: { title: 'Hello' } } },
      data: { id: 'item-123456789', collection: 'posts', data: { title: 'Hello', views: 3 } },
    };
    const chat = vi
      .fn<Chat>()
      .mockResolvedValueOnce({ ...collections, conversationId: 'c', results: [collections] })
      .mockResolvedValueOnce({ ...item, conversationId: 'c', results: [item] });
    const { input, container } = renderPanel(chat);
    await type(input, 'list collections');
    await waitFor(() => expect(container.querySelector('[data-result="collections"] [data-collection="posts"]')).toBeTruthy());
    expect(container.querySelector('[data-result="collections"]')?.textContent).toMatch(/1 collection.*posts.*Posts.*1 field/s);
    await type(input, 'create item in posts with {"title":"Hello"}');
    await waitFor(() => expect(container.querySelector('[data-result="item"]')).toBeTruthy());
    expect(container.querySelector('[data-result="item"]')?.textContent).toMatch(/Item 23456789 in posts.*title.*Hello.*views.*3/s);
  });

  it('shows the pending_approval badge of a reply, and changes it live as the approval is decided', async () => {
    const known = new SvelteMap<string, ApprovalJson>();
    const { input, container } = renderPanel(async () => pendingReply('ap-7'), { approvalOf: (id) => known.get(id) });
    await type(input, 'delete collection posts');
    const badge = () => container.querySelector('[data-approval-id="ap-7"] [data-status]');
    await waitFor(() => expect(badge()?.getAttribute('data-status')).toBe('pending_approval'));
    expect(badge()?.textContent?.trim()).toBe('Pending approval');

    known.set('ap-7', approvalFixture({ id: 'ap-7', status: 'executing', decidedBy: { id: 'u-bea', name: 'Bea' }, attempts: 1 }));
    await waitFor(() => expect(badge()?.getAttribute('data-status')).toBe('executing'));
    known.set('ap-7', approvalFixture({ id: 'ap-7', status: 'pending', lastError: 'posts is locked', attempts: 1 }));
    await waitFor(() => expect(badge()?.textContent?.trim()).toBe('Failed — still pending'));
    expect(container.textContent).toMatch(/It ran and failed: posts is locked\. Still pending, so an admin can retry\./);
    known.set('ap-7', approvalFixture({ id: 'ap-7', status: 'approved', decidedBy: { id: 'u-bea', name: 'Bea' }, attempts: 2 }));
    await waitFor(() => expect(badge()?.getAttribute('data-status')).toBe('approved'));
    expect(container.textContent).toMatch(/Approved by Bea/);
    known.set('ap-7', approvalFixture({ id: 'ap-7', status: 'rejected', decidedBy: { id: 'u-bea', name: 'Bea' }, reason: 'not now' }));
    await waitFor(() => expect(badge()?.getAttribute('data-status')).toBe('rejected'));
    expect(container.textContent).toMatch(/Rejected by Bea: “not now”/);
  });

  it('keeps user and assistant messages apart', async () => {
    const { input, container } = renderPanel(async () => executedReply('hi'));
    await type(input, 'hello');
    await waitFor(() => expect(container.querySelectorAll('li[data-role]')).toHaveLength(2));
    const [user, assistant] = container.querySelectorAll('li[data-role]');
    expect(user?.classList.contains('user')).toBe(true);
    expect(assistant?.classList.contains('assistant')).toBe(true);
  });

  it('offers chips and completions built from the site’s real collections', async () => {
    const { input, container } = renderPanel(vi.fn<Chat>(), { collections: [{ name: 'recipes', fields: [{ name: 'dish' }] }] });
    const chips = [...container.querySelectorAll('.suggestions .chip')].map((chip) => chip.textContent);
    expect(chips).toEqual(['list collections', 'list items in recipes', 'add field summary to recipes as text']);
    expect(container.textContent).not.toMatch(/posts/);
    await fireEvent.input(input, { target: { value: 'create item' } });
    const completions = screen.getByRole('group', { name: 'Complete the command' });
    expect(completions.textContent).toContain('create item in recipes with {"dish": "Hello"}');
    await fireEvent.click(screen.getByRole('button', { name: 'create item in recipes with {"dish": "Hello"}' }));
    expect(input.value).toBe('create item in recipes with {"dish": "Hello"}');
  });

  it('offers no collection it does not have when the site has none', () => {
    const { container } = renderPanel(vi.fn<Chat>());
    const chips = [...container.querySelectorAll('.suggestions .chip')].map((chip) => chip.textContent);
    expect(chips).toEqual(['list collections', 'create collection articles']);
  });

  it('disables Send beyond 2000 characters, and says why on Enter without sending', async () => {
    const chat = vi.fn<Chat>();
    const { input } = renderPanel(chat);
    await fireEvent.input(input, { target: { value: 'x'.repeat(2000) } });
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false);
    await type(input, 'x'.repeat(2001));
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('alert').textContent).toMatch(/1 to 2000 characters/);
    expect(chat).not.toHaveBeenCalled();
  });

  it('tells a denial as one sentence with the fix, naming the skill as an action', async () => {
    const denied = {
      status: 'denied' as const,
      reason: 'missing_capabilities' as const,
      skill: { name: 'createField', arguments: { collection: 'posts', field: { name: 'x', type: 'string' } } },
      message: 'createField needs schema:write, which you do not hold in this site.',
      details: [{ path: 'capabilities', message: 'missing schema:write' }],
    };
    const { input, container } = renderPanel(async () => ({ ...denied, conversationId: 'c', results: [denied] }));
    await type(input, 'add field x to posts');
    await waitFor(() => expect(container.querySelector('[data-outcome="denied"]')).toBeTruthy());
    expect(container.querySelector('[data-outcome="denied"] .lead')?.textContent?.trim()).toBe('Add a field: not done');
    expect(container.querySelector('[data-denial]')?.textContent).toBe(
      'To add a field you need someone who can change the schema: ask a site admin to do it, or to give you that permission.',
    );
    expect(container.textContent).not.toMatch(/schema:write/);
  });

  it('points to the request already waiting when the same one is asked again', async () => {
    const earlier = approvalFixture({ id: 'ap-old', createdAt: new Date(Date.now() - 10 * 60_000).toISOString() });
    const { input, container } = renderPanel(async () => pendingReply('ap-old'), {
      approvalOf: (id) => (id === 'ap-old' ? earlier : undefined),
    });
    await type(input, 'delete collection posts');
    await waitFor(() => expect(container.querySelector('[data-existing]')).toBeTruthy());
    expect(container.querySelector('[data-existing]')?.textContent).toMatch(/already waits for approval/);
    expect(container.querySelector('a[href="/settings/ai-approvals#approval-ap-old"]')).toBeTruthy();
  });
});
