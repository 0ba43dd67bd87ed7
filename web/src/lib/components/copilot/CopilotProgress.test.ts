import type { ChatResponse, CopilotProgressEvent } from '@lumibase/shared';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { CopilotState } from '../../state/copilot.svelte.js';
import { approvalFixture, executedReply, pendingReply } from '../../testing/fixtures.js';
import CopilotPanel from './CopilotPanel.svelte';

afterEach(() => cleanup());

/** A chat whose answer the test gives. */
function heldChat() {
  let answer!: (reply: ChatResponse) => void;
  const requests: { message: string; conversationId?: string | undefined }[] = [];
  const chat = (request: { message: string; conversationId?: string | undefined }) => {
    requests.push(request);
    return new Promise<ChatResponse>((resolve) => (answer = resolve));
  };
  return { chat, requests, answer: (reply: ChatResponse) => answer(reply) };
}

const progress = (event: Omit<CopilotProgressEvent, 'conversationId'>, conversationId = 'conv-1'): CopilotProgressEvent => ({
  conversationId,
  ...event,
});

describe('CopilotState progress', () => {
  it('keeps the turn in flight: text pieces of a step joined, each call with its result, nothing of other conversations', async () => {
    const { chat, answer } = heldChat();
    const copilot = new CopilotState({ chat });
    copilot.receiveProgress(progress({ step: 1, kind: 'text', text: 'ignored: nothing in flight' }));
    expect(copilot.progress).toEqual([]);

    const sent = copilot.send('tidy up posts');
    copilot.receiveProgress(progress({ step: 1, kind: 'text', text: 'Let me ' }));
    copilot.receiveProgress(progress({ step: 1, kind: 'text', text: 'look.' }));
    copilot.receiveProgress(progress({ step: 1, kind: 'text', text: 'another tab' }, 'conv-other'));
    copilot.receiveProgress(progress({ step: 1, kind: 'tool-call', skill: 'listItems' }));
    copilot.receiveProgress(progress({ step: 1, kind: 'tool-call', skill: 'searchItems' }));
    copilot.receiveProgress(progress({ step: 1, kind: 'tool-result', skill: 'listItems', status: 'executed' }));
    copilot.receiveProgress(progress({ step: 2, kind: 'text', text: 'Deleting.' }));
    copilot.receiveProgress(progress({ step: 2, kind: 'tool-call', skill: 'deleteCollection' }));
    copilot.receiveProgress(progress({ step: 2, kind: 'tool-result', skill: 'deleteCollection', status: 'pending_approval' }));
    expect(copilot.progress).toEqual([
      { step: 1, kind: 'text', text: 'Let me look.' },
      { step: 1, kind: 'tool', skill: 'listItems', status: 'executed' },
      { step: 1, kind: 'tool', skill: 'searchItems', status: undefined },
      { step: 2, kind: 'text', text: 'Deleting.' },
      { step: 2, kind: 'tool', skill: 'deleteCollection', status: 'pending_approval' },
    ]);

    answer(executedReply('done'));
    await sent;
    expect(copilot.progress).toEqual([]);
    expect(copilot.conversationId).toBe('conv-1');

    // The next turn continues conv-1: another conversation's events stay out even when they come first.
    const next = copilot.send('and pages');
    copilot.receiveProgress(progress({ step: 1, kind: 'text', text: 'elsewhere' }, 'conv-other'));
    copilot.receiveProgress(progress({ step: 1, kind: 'text', text: 'Here' }));
    expect(copilot.progress).toEqual([{ step: 1, kind: 'text', text: 'Here' }]);
    answer(executedReply('ok'));
    await next;
  });
});

describe('CopilotPanel progress', () => {
  it('shows the streamed words and each call as it comes, then the final reply in their place', async () => {
    const { chat, answer } = heldChat();
    const copilot = new CopilotState({ chat });
    const { container } = render(CopilotPanel, { props: { copilot, approvalOf: () => undefined, onclose: () => {} } });
    const input = screen.getByLabelText('Message the Copilot');
    await fireEvent.input(input, { target: { value: 'clean up posts' } });
    await fireEvent.keyDown(input, { key: 'Enter' });

    copilot.receiveProgress(progress({ step: 1, kind: 'text', text: 'Reading ' }));
    copilot.receiveProgress(progress({ step: 1, kind: 'text', text: 'the posts.' }));
    copilot.receiveProgress(progress({ step: 1, kind: 'tool-call', skill: 'listItems' }));
    await waitFor(() => expect(container.querySelector('[data-copilot-progress]')).not.toBeNull());
    const view = () => container.querySelector('[data-copilot-progress]');
    expect(view()?.querySelector('[data-progress="text"]')?.textContent).toBe('Reading the posts.');
    expect(view()?.querySelector('[data-progress="tool"]')?.textContent?.trim()).toBe('List items: running…');

    copilot.receiveProgress(progress({ step: 1, kind: 'tool-result', skill: 'listItems', status: 'executed' }));
    copilot.receiveProgress(progress({ step: 2, kind: 'tool-call', skill: 'deleteItem' }));
    copilot.receiveProgress(progress({ step: 2, kind: 'tool-result', skill: 'deleteItem', status: 'denied' }));
    await waitFor(() =>
      expect([...(view()?.querySelectorAll('[data-progress="tool"]') ?? [])].map((line) => line.textContent?.trim())).toEqual([
        'List items: done',
        'Delete an item: not done',
      ]),
    );

    const reply = { ...executedReply('Listed 3 items'), reply: 'I listed the posts; none needed deleting.' };
    answer(reply);
    await waitFor(() => expect(view()).toBeNull());
    const last = [...container.querySelectorAll('ol[aria-label="Conversation"] > li')].at(-1);
    expect(last?.querySelector('[data-reply]')?.textContent).toBe('I listed the posts; none needed deleting.');
  });

  it('does not repeat a reply its only outcome already says, and cautions on a pending approval proposed after reading', async () => {
    const approval = approvalFixture({
      id: 'ap-9',
      context: {
        message: 'delete collection posts',
        conversationId: 'conv-1',
        readBefore: [
          { skill: 'listItems', collection: 'posts', id: 'p1' },
          { skill: 'listItems', collection: 'posts', id: 'p2' },
        ],
      },
    });
    const replies: ChatResponse[] = [
      { ...executedReply('Hello there'), reply: 'Hello there' },
      { ...pendingReply('ap-9'), reply: 'That needs an approval.' },
    ];
    const copilot = new CopilotState({ chat: async () => replies.shift()! });
    const { container } = render(CopilotPanel, {
      props: { copilot, approvalOf: (id: string) => (id === 'ap-9' ? approval : undefined), onclose: () => {} },
    });
    await copilot.send('hi');
    await copilot.send('delete collection posts');
    await waitFor(() => expect(container.querySelectorAll('ol[aria-label="Conversation"] > li')).toHaveLength(4));
    const [first, second] = [...container.querySelectorAll('li[data-role="assistant"]')];
    expect(first?.querySelector('[data-reply]')).toBeNull();
    expect(first?.textContent).toContain('Hello there');
    expect(second?.querySelector('[data-reply]')?.textContent).toBe('That needs an approval.');
    expect(second?.querySelector('[data-read-before]')?.textContent).toContain('Proposed after reading 2 items of posts.');
    expect(first?.querySelector('[data-read-before]')).toBeNull();
  });
});

describe('CopilotPanel continuation reply', () => {
  it('shows the reply of a run that continued after its approval was settled, live, in its conversation only', async () => {
    const copilot = new CopilotState({ chat: async () => ({ ...pendingReply('ap-3'), reply: 'That waits for an admin.' }) });
    const { container } = render(CopilotPanel, { props: { copilot, approvalOf: () => undefined, onclose: () => {} } });
    await copilot.send('delete collection posts');
    // Another conversation's continuation (another tab) is not this thread's.
    copilot.receiveProgress({ conversationId: 'conv-other', kind: 'reply', text: 'Done elsewhere.' });
    copilot.receiveProgress({ conversationId: 'conv-1', kind: 'reply', text: 'Done: the step ran.' });
    await waitFor(() => expect(container.querySelector('[data-continued]')?.textContent).toBe('Done: the step ran.'));
    const last = [...container.querySelectorAll('ol[aria-label="Conversation"] > li')].at(-1);
    expect(last?.querySelector('[data-continued]')?.textContent).toBe('Done: the step ran.');
    expect(container.textContent).not.toContain('Done elsewhere.');
  });
});
