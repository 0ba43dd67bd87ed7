import type { Field, SuggestFieldData } from '@lumibase/shared';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error.js';
import FieldFormDialog from './FieldFormDialog.svelte';

afterEach(() => cleanup());

const suggestion: SuggestFieldData = {
  suggestion: { name: 'status', type: 'enum', required: true, options: { values: ['draft', 'published'], hint: 'lifecycle' } },
  rationale: 'Posts elsewhere in the site track their lifecycle.',
  similar: [
    { collection: 'pages', field: 'state', score: 0.82 },
    { collection: '(catalog)', field: 'status', score: 0.77 },
  ],
};

function renderDialog(suggest: (description: string) => Promise<SuggestFieldData>) {
  const oncreate = vi.fn<(field: Field) => Promise<void>>().mockResolvedValue(undefined);
  const onclose = vi.fn();
  render(FieldFormDialog, {
    props: { open: true, collection: 'posts', suggesting: true, suggest, oncreate, onupdate: vi.fn(), onclose },
  });
  return { oncreate, onclose };
}

describe('FieldFormDialog: Suggest a field', () => {
  it('pre-fills the form from the suggestion, shows why, and adds the field only when the admin saves', async () => {
    const suggest = vi.fn().mockResolvedValue(suggestion);
    const { oncreate, onclose } = renderDialog(suggest);
    await fireEvent.input(screen.getByLabelText('Describe the field'), { target: { value: '  where the post is in its life  ' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Suggest' }));
    await waitFor(() => expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('status'));
    expect(suggest).toHaveBeenCalledWith('where the post is in its life');
    expect((screen.getByLabelText('Type') as HTMLSelectElement).value).toBe('enum');
    expect((screen.getByLabelText(/^Options/) as HTMLTextAreaElement).value).toBe('draft\npublished');
    expect((screen.getByLabelText(/Required/) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText(/track their lifecycle/)).toBeTruthy();
    expect(screen.getByText('pages.state')).toBeTruthy();
    expect(screen.getByText('82%')).toBeTruthy();
    expect(screen.getByText('common field · 77%')).toBeTruthy();
    expect(oncreate).not.toHaveBeenCalled();

    // The admin adjusts it, then adds it: the other options of the suggestion are kept.
    await fireEvent.input(screen.getByLabelText(/^Options/), { target: { value: 'draft\nreview\npublished' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add field' }));
    await waitFor(() =>
      expect(oncreate).toHaveBeenCalledWith({
        name: 'status',
        type: 'enum',
        required: true,
        options: { hint: 'lifecycle', values: ['draft', 'review', 'published'] },
      }),
    );
    await waitFor(() => expect(onclose).toHaveBeenCalled());
  });

  it('asks for a description first, and shows the server’s refusal in its words', async () => {
    const suggest = vi.fn().mockRejectedValue(new ApiError({ status: 404, code: 'NOT_FOUND', message: 'collection posts not found' }));
    renderDialog(suggest);
    await fireEvent.click(screen.getByRole('button', { name: 'Suggest' }));
    expect(screen.getByRole('alert').textContent).toMatch(/Describe what the field should hold/);
    expect(suggest).not.toHaveBeenCalled();
    await fireEvent.input(screen.getByLabelText('Describe the field'), { target: { value: 'a subtitle' } });
    await fireEvent.keyDown(screen.getByLabelText('Describe the field'), { key: 'Enter' });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('collection posts not found'));
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('');
  });
});
