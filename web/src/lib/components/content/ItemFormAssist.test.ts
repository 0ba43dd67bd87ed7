import type { ContentAssistData, Field, ItemView } from '@lumibase/shared';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error.js';
import ItemForm from './ItemForm.svelte';

afterEach(() => cleanup());

const fields: Field[] = [
  { name: 'title', type: 'string', required: true },
  { name: 'summary', type: 'text', required: false },
  { name: 'views', type: 'integer', required: false },
  { name: 'status', type: 'enum', required: false, options: { values: ['draft', 'published'] } },
];
const item: ItemView = {
  id: 'i1',
  collection: 'posts',
  data: { title: 'Pruning roses', summary: '' },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const answer: ContentAssistData = {
  field: 'summary',
  value: 'Prune roses in late winter, just above an outward bud.',
  rationale: 'Taken from the item’s own text.',
  sources: [{ collection: 'posts', id: 'i1', score: 1 }],
};

function renderForm(assist: (field: string, instruction: string) => Promise<ContentAssistData>) {
  const onsubmit = vi.fn(async () => {});
  const ondirty = vi.fn();
  render(ItemForm, { props: { fields, item, onsubmit, oncancel: vi.fn(), ondirty, assist } });
  return { onsubmit, ondirty };
}

describe('ItemForm: Assist', () => {
  it('is offered beside string and text fields only', () => {
    renderForm(vi.fn());
    expect(screen.getAllByRole('button', { name: /^Assist with/ }).map((button) => button.getAttribute('aria-label'))).toEqual([
      'Assist with Title',
      'Assist with Summary',
    ]);
  });

  it('puts the value in the input as an unsaved edit; only Save sends it', async () => {
    const assist = vi.fn().mockResolvedValue(answer);
    const { onsubmit, ondirty } = renderForm(assist);
    await fireEvent.click(screen.getByRole('button', { name: 'Assist with Summary' }));
    const instruction = screen.getByLabelText('Instruction for Summary');
    await fireEvent.input(instruction, { target: { value: 'a one-sentence summary' } });
    await fireEvent.keyDown(instruction, { key: 'Enter' });
    const summary = screen.getByLabelText(/^Summary/) as HTMLTextAreaElement;
    await waitFor(() => expect(summary.value).toBe(answer.value));
    expect(assist).toHaveBeenCalledWith('summary', 'a one-sentence summary');
    expect(screen.getByRole('status').textContent).toMatch(/Not saved until you save/);
    expect(onsubmit).not.toHaveBeenCalled();
    await waitFor(() => expect(ondirty).toHaveBeenLastCalledWith(true));

    await fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(onsubmit).toHaveBeenCalledWith({ summary: answer.value });
  });

  it('shows why when the server refuses, leaving the input as it was', async () => {
    const assist = vi
      .fn()
      .mockRejectedValue(new ApiError({ status: 403, code: 'FORBIDDEN', message: 'aiContentAssist is turned off for this site' }));
    renderForm(assist);
    await fireEvent.click(screen.getByRole('button', { name: 'Assist with Title' }));
    await fireEvent.input(screen.getByLabelText('Instruction for Title'), { target: { value: 'a catchier title' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Write' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('aiContentAssist is turned off for this site'));
    expect((screen.getByLabelText(/^Title/) as HTMLInputElement).value).toBe('Pruning roses');
  });
});
