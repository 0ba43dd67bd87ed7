import type { Field, ItemRevisionView } from '@lumibase/shared';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error.js';
import { ItemHistoryState, type RestoredItem } from '../../state/item-history.svelte.js';
import ItemHistory from './ItemHistory.svelte';

afterEach(() => cleanup());

const fields: Field[] = [
  { name: 'title', type: 'string', required: false },
  { name: 'summary', type: 'text', required: false },
  { name: 'views', type: 'integer', required: false },
];

const revision = (number: number, extra: Partial<ItemRevisionView>): ItemRevisionView => ({
  revision: number,
  action: 'updated',
  data: {},
  actor: { id: 'u-ann', name: 'Ann Admin' },
  via: 'rest',
  createdAt: '2026-01-01T10:00:00.000Z',
  ...extra,
});

function setup(
  list: ItemRevisionView[],
  { canRestore = true, restore = vi.fn(async (): Promise<RestoredItem> => ({}) as RestoredItem) } = {},
) {
  const revisions = vi.fn(async () => list);
  const onrestored = vi.fn();
  const history = new ItemHistoryState({ list: revisions, restore, onrestored });
  void history.load();
  const current = list[0]?.data ?? {};
  const view = render(ItemHistory, { props: { history, current, fields, canRestore } });
  return { ...view, history, revisions, restore, onrestored };
}

const THREE = [
  revision(3, { data: { title: 'Third', views: 3 }, via: 'copilot', actor: { id: 'u-bea', name: 'Bea' } }),
  revision(2, { data: { title: 'Second', views: 3 }, via: 'approval', approvalId: 'ap-123456789' }),
  revision(1, { action: 'created', data: { title: 'First', summary: 'Short' } }),
];

describe('ItemHistory', () => {
  it('lists the revisions newest first with what changed, who, how and the approval', async () => {
    const { container } = setup(THREE);
    await waitFor(() => expect(container.querySelectorAll('tr[data-revision]')).toHaveLength(3));
    const rows = [...container.querySelectorAll<HTMLElement>('tr[data-revision]')];
    expect(rows.map((row) => row.dataset.revision)).toEqual(['3', '2', '1']);
    expect(rows[0]?.textContent).toMatch(/3\s*current.*Updated.*Copilot.*Bea/s);
    expect(rows[1]?.textContent).toMatch(/Approved request.*approval 23456789.*Ann Admin/s);
    expect(rows[1]?.querySelector('a')?.getAttribute('href')).toBe('/settings/ai-approvals?status=approved#approval-ap-123456789');
    expect(rows[2]?.textContent).toMatch(/Created.*Studio or API/s);
  });

  it('compares a revision with the current data field by field', async () => {
    const { container } = setup(THREE);
    await fireEvent.click(await screen.findByRole('button', { name: 'Compare revision 1 with now' }));
    const diff = container.querySelector<HTMLElement>('[data-diff="1"]')!;
    const changes = [...diff.querySelectorAll<HTMLElement>('tr[data-change]')].map((row) => [row.dataset.field, row.dataset.change]);
    expect(changes).toEqual([
      ['title', 'changed'],
      ['summary', 'added'],
      ['views', 'removed'],
    ]);
    expect(diff.querySelector('[data-field="title"]')?.textContent).toMatch(/Title.*Changed.*Third.*First/s);

    await fireEvent.click(screen.getByRole('button', { name: 'Compare revision 3 with now' }));
    expect(container.querySelector('[data-diff="3"] [data-no-changes]')).toBeTruthy();
    // The current revision has nothing to restore.
    expect(within(container.querySelector('[data-diff="3"]')!).queryByRole('button', { name: /Restore/ })).toBeNull();
  });

  it('restores a revision: hands back the item and reads the history again', async () => {
    const restored = { id: 'i1', collection: 'posts', data: { title: 'First' }, createdAt: '', updatedAt: '', revision: 4 };
    const restore = vi.fn(async () => restored);
    const { container, revisions, onrestored } = setup(THREE, { restore });
    await fireEvent.click(await screen.findByRole('button', { name: 'Compare revision 1 with now' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Restore revision 1' }));
    await waitFor(() => expect(container.querySelector('[data-restored="1"]')).toBeTruthy());
    expect(restore).toHaveBeenCalledExactlyOnceWith(1);
    expect(onrestored).toHaveBeenCalledWith(restored);
    expect(revisions).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('status').textContent).toMatch(/Restored revision 1.*revision 4/);
  });

  it('says why a restore was refused, with the fields a 409 names', async () => {
    const restore = vi.fn(async (): Promise<RestoredItem> => {
      throw new ApiError({
        status: 409,
        code: 'CONFLICT',
        message: 'This revision no longer fits the collection’s fields',
        details: [{ path: 'data.summary', message: 'Unknown field' }],
      });
    });
    const { onrestored } = setup(THREE, { restore });
    await fireEvent.click(await screen.findByRole('button', { name: 'Compare revision 1 with now' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Restore revision 1' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(
      /Revision 1 was not restored: This revision no longer fits the collection’s fields — data.summary: Unknown field/,
    );
    expect(onrestored).not.toHaveBeenCalled();
  });

  it('offers no Restore without content:write, and shows the empty and error states', async () => {
    setup(THREE, { canRestore: false });
    await fireEvent.click(await screen.findByRole('button', { name: 'Compare revision 1 with now' }));
    expect(screen.queryByRole('button', { name: /Restore/ })).toBeNull();
    cleanup();

    setup([]);
    await screen.findByText('No history yet');
    cleanup();

    const history = new ItemHistoryState({
      list: async () => {
        throw new ApiError({ status: 0, code: 'NETWORK', message: 'offline' });
      },
      restore: vi.fn(),
    });
    void history.load();
    render(ItemHistory, { props: { history, current: {}, fields, canRestore: true } });
    expect((await screen.findByRole('alert')).textContent).toMatch(/Could not load this item's history/);
  });
});
