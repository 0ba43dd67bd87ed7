import type { ApprovalJson, ChatResponse, UndoRef } from '@lumibase/shared';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { SvelteMap } from 'svelte/reactivity';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error.js';
import { CopilotState } from '../../state/copilot.svelte.js';
import { approvalFixture } from '../../testing/fixtures.js';
import CopilotPanel from './CopilotPanel.svelte';

afterEach(() => cleanup());

type Restore = (ref: UndoRef) => Promise<unknown>;

const undo = { collection: 'posts', id: 'item-123456789', revision: 1 };

function updatedReply(): ChatResponse {
  const outcome = {
    status: 'executed' as const,
    skill: { name: 'updateItem', arguments: { collection: 'posts', id: undo.id, data: { title: 'New' } } },
    data: { id: undo.id, collection: 'posts', data: { title: 'New' } },
    undo,
  };
  return { ...outcome, conversationId: 'conv-1', results: [outcome] };
}

function deletionReply(approvalId: string): ChatResponse {
  const outcome = {
    status: 'pending_approval' as const,
    skill: { name: 'deleteItem', arguments: { collection: 'posts', id: undo.id } },
    approvalId,
    message: `deleteItem needs a human admin's approval; approval ${approvalId} is pending.`,
  };
  return { ...outcome, conversationId: 'conv-1', results: [outcome] };
}

function renderPanel(
  reply: ChatResponse,
  restore: Restore,
  { canUndo = true, approvalOf = (_id: string): ApprovalJson | undefined => undefined } = {},
) {
  const copilot = new CopilotState({ chat: async () => reply, restore });
  const view = render(CopilotPanel, { props: { copilot, approvalOf, onclose: vi.fn(), canUndo } });
  return { ...view, copilot };
}

async function send(text: string) {
  const input = screen.getByLabelText('Message the Copilot');
  await fireEvent.input(input, { target: { value: text } });
  await fireEvent.keyDown(input, { key: 'Enter' });
}

describe('Undo in the Copilot panel', () => {
  it('restores the revision an executed change names, says so in the thread, and cannot be undone twice', async () => {
    const restore = vi.fn<Restore>(async () => ({}));
    const { container } = renderPanel(updatedReply(), restore);
    await send('update item item-123456789 in posts with {"title":"New"}');
    const button = await screen.findByRole('button', { name: 'Undo' });

    await fireEvent.click(button);
    await waitFor(() => expect(container.querySelector('[data-notice]')).toBeTruthy());
    expect(restore).toHaveBeenCalledExactlyOnceWith(undo);
    expect(container.querySelector('[data-notice]')?.textContent?.trim()).toMatch(
      /^Undone: (“.+”|the item) in posts is back as it was \(revision 1\)$/,
    );
    const done = screen.getByRole('button', { name: 'Undone' }) as HTMLButtonElement;
    expect(done.disabled).toBe(true);
    await fireEvent.click(done);
    expect(restore).toHaveBeenCalledTimes(1);
  });

  it('tells a refused undo with the fields that no longer fit, and lets it be tried again', async () => {
    const refused = new ApiError({
      status: 409,
      code: 'CONFLICT',
      message: 'This revision no longer fits the collection’s fields',
      details: [{ path: 'data.title', message: 'Unknown field' }],
    });
    const restore = vi.fn<Restore>().mockRejectedValueOnce(refused).mockResolvedValueOnce({});
    const { container } = renderPanel(updatedReply(), restore);
    await send('update item');
    await fireEvent.click(await screen.findByRole('button', { name: 'Undo' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Not undone: This revision no longer fits the collection’s fields — data.title: Unknown field');
    expect(container.querySelector('[data-notice]')).toBeNull();

    await fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(container.querySelector('[data-notice]')).toBeTruthy());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers Undo on an approved deletion once it is approved, from the approval’s result', async () => {
    const known = new SvelteMap<string, ApprovalJson>();
    const restore = vi.fn<Restore>(async () => ({}));
    const { container } = renderPanel(deletionReply('ap-9'), restore, { approvalOf: (id) => known.get(id) });
    await send('delete item item-123456789 from posts');
    await waitFor(() => expect(container.querySelector('[data-approval-id="ap-9"]')).toBeTruthy());
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();

    const decided = { skillName: 'deleteItem', arguments: { collection: 'posts', id: undo.id }, decidedBy: { id: 'u-bea', name: 'Bea' } };
    known.set(
      'ap-9',
      approvalFixture({ id: 'ap-9', status: 'approved', ...decided, result: { deleted: true, undo: { ...undo, revision: 2 } } }),
    );
    await fireEvent.click(await screen.findByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(container.querySelector('[data-notice]')).toBeTruthy());
    expect(restore).toHaveBeenCalledWith({ ...undo, revision: 2 });
    expect(container.querySelector('[data-notice]')?.textContent).toContain('is back as it was (revision 2)');
  });

  it('offers no Undo to someone who cannot write content, nor for a change that names no undo', async () => {
    renderPanel(updatedReply(), vi.fn<Restore>(), { canUndo: false });
    await send('update item');
    await screen.findByText(/done/);
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
    cleanup();

    const { undo: _none, ...created } = updatedReply().results[0] as ChatResponse['results'][number] & { undo?: UndoRef };
    renderPanel({ ...created, conversationId: 'c', results: [created] } as ChatResponse, vi.fn<Restore>());
    await send('create item');
    await screen.findByText(/done/);
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });
});
