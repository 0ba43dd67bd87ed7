import type { Field, ItemView } from '@lumibase/shared';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error.js';
import { fieldLabel } from '../../format/values.js';
import ItemForm from './ItemForm.svelte';

const fields: Field[] = [
  { name: 'title', type: 'string', required: true },
  { name: 'body', type: 'text', required: false },
  { name: 'views', type: 'integer', required: false },
  { name: 'rating', type: 'number', required: false },
  { name: 'featured', type: 'boolean', required: false },
  { name: 'published_at', type: 'datetime', required: false },
  { name: 'status', type: 'enum', required: false, options: { values: ['draft', 'published'] } },
  { name: 'meta', type: 'json', required: false },
];

afterEach(() => cleanup());

function renderForm(props: { item?: ItemView; onsubmit?: (data: Record<string, unknown>) => Promise<void> } = {}) {
  const onsubmit = vi.fn(props.onsubmit ?? (async () => {}));
  const oncancel = vi.fn();
  const ondirty = vi.fn();
  const result = render(ItemForm, { props: { fields, item: props.item, onsubmit, oncancel, ondirty } });
  return { ...result, onsubmit, oncancel, ondirty };
}

// Inputs are labelled in words ("published_at" → "Published at").
const input = (name: string) => screen.getByLabelText(new RegExp(`^${fieldLabel({ name })}`)) as HTMLInputElement;

describe('ItemForm', () => {
  it('generates the input each field type calls for', () => {
    renderForm();
    expect(input('title')).toMatchObject({ tagName: 'INPUT', type: 'text', maxLength: 1000 });
    expect(input('body')).toMatchObject({ tagName: 'TEXTAREA', maxLength: 1_000_000 });
    // Numbers are text read the reader's way (a number input drops 1e400 and reads "12,50" as 1250).
    expect(input('views')).toMatchObject({ type: 'text', inputMode: 'numeric' });
    expect(input('rating')).toMatchObject({ type: 'text', inputMode: 'decimal' });
    expect(input('featured')).toMatchObject({ type: 'checkbox' });
    expect(input('published_at')).toMatchObject({ type: 'datetime-local' });
    const select = input('status') as unknown as HTMLSelectElement;
    expect(select.tagName).toBe('SELECT');
    expect([...select.options].map((option) => option.value)).toEqual(['', 'draft', 'published']);
    expect(input('meta').tagName).toBe('TEXTAREA');
    expect(input('meta').className).toContain('code');
    expect(input('title').getAttribute('aria-required')).toBe('true');
  });

  it('sends typed values: numbers, booleans, ISO date-times, enum, parsed JSON', async () => {
    const { onsubmit } = renderForm();
    await fireEvent.input(input('title'), { target: { value: 'Hello' } });
    await fireEvent.input(input('views'), { target: { value: '12' } });
    await fireEvent.input(input('rating'), { target: { value: '4.5' } });
    await fireEvent.click(input('featured'));
    await fireEvent.input(input('published_at'), { target: { value: '2026-05-01T09:30' } });
    await fireEvent.change(input('status'), { target: { value: 'published' } });
    await fireEvent.input(input('meta'), { target: { value: '{"tags":["a","b"]}' } });
    await fireEvent.submit(screen.getByRole('button', { name: 'Create item' }).closest('form')!);
    expect(onsubmit).toHaveBeenCalledWith({
      title: 'Hello',
      views: 12,
      rating: 4.5,
      featured: true,
      published_at: new Date(2026, 4, 1, 9, 30).toISOString(),
      status: 'published',
      meta: { tags: ['a', 'b'] },
    });
  });

  it('refuses a decimal written with the wrong mark and a number too large, at their inputs, sending nothing', async () => {
    const { onsubmit } = renderForm();
    await fireEvent.input(input('title'), { target: { value: 'Hello' } });
    await fireEvent.input(input('rating'), { target: { value: '12,50' } });
    await fireEvent.input(input('views'), { target: { value: '1e400' } });
    await fireEvent.submit(screen.getByRole('button', { name: 'Create item' }).closest('form')!);
    expect(onsubmit).not.toHaveBeenCalled();
    expect(input('rating').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Write decimals with a point: 12.50')).toBeTruthy();
    expect(screen.getByText(/This number is too large/)).toBeTruthy();
  });

  it('blocks invalid JSON before sending and says why next to the editor', async () => {
    const { onsubmit } = renderForm();
    await fireEvent.input(input('title'), { target: { value: 'Hello' } });
    await fireEvent.input(input('meta'), { target: { value: '{"tags": [' } });
    expect(screen.getAllByText(/Invalid JSON/).length).toBeGreaterThan(0);
    await fireEvent.click(screen.getByRole('button', { name: 'Create item' }));
    expect(onsubmit).not.toHaveBeenCalled();
    expect(input('meta').getAttribute('aria-invalid')).toBe('true');
    const describedBy = input('meta').getAttribute('aria-describedby')!;
    expect(
      describedBy
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' '),
    ).toMatch(/Invalid JSON/);
  });

  it("shows the API's 400 details next to the fields they name, and the rest on top", async () => {
    const error = new ApiError({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'Item data does not match the collection fields',
      details: [
        { path: 'data.title', message: 'Required' },
        { path: 'data.ghost', message: 'Unknown field' },
      ],
    });
    renderForm({ onsubmit: () => Promise.reject(error) });
    await fireEvent.click(screen.getByRole('button', { name: 'Create item' }));
    await waitFor(() => expect(input('title').getAttribute('aria-invalid')).toBe('true'));
    const titleErrors = document.getElementById(`${input('title').id}-error`);
    expect(titleErrors?.textContent).toBe('Required');
    expect(screen.getByRole('alert').textContent).toContain('data.ghost: Unknown field');
    // Typing into the field clears its error.
    await fireEvent.input(input('title'), { target: { value: 'x' } });
    expect(input('title').getAttribute('aria-invalid')).toBe('false');
  });

  it('disables the form while the request is in flight', async () => {
    let finish!: () => void;
    renderForm({ onsubmit: () => new Promise<void>((resolve) => (finish = resolve)) });
    await fireEvent.input(input('title'), { target: { value: 'Hello' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Create item' }));
    expect(input('title').closest('fieldset')!.disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Create item' })).toHaveProperty('disabled', true);
    finish();
    await waitFor(() => expect(input('title').closest('fieldset')!.disabled).toBe(false));
  });

  it('when editing, starts from the item and sends only the changed fields', async () => {
    const item: ItemView = {
      id: 'i1',
      collection: 'posts',
      data: { title: 'Old', views: 3, featured: true, meta: { a: 1 } },
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    const { onsubmit } = renderForm({ item });
    expect(input('title').value).toBe('Old');
    expect(input('featured').checked).toBe(true);
    await fireEvent.input(input('title'), { target: { value: 'New' } });
    await fireEvent.input(input('views'), { target: { value: '' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(onsubmit).toHaveBeenCalledWith({ title: 'New', views: null });
  });

  it('says when it holds unsaved edits, and when they are undone', async () => {
    const { ondirty } = renderForm();
    await waitFor(() => expect(ondirty).toHaveBeenLastCalledWith(false));
    await fireEvent.input(input('title'), { target: { value: 'Draft' } });
    await waitFor(() => expect(ondirty).toHaveBeenLastCalledWith(true));
    await fireEvent.input(input('title'), { target: { value: '' } });
    await waitFor(() => expect(ondirty).toHaveBeenLastCalledWith(false));
  });
});
