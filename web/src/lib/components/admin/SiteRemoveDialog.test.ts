import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import SiteRemoveDialog from './SiteRemoveDialog.svelte';

afterEach(() => cleanup());

const site = { id: 's1', name: 'Harbour Lights' };

describe('SiteRemoveDialog', () => {
  it('deletes only once the exact name is typed, passing it as the confirmation', async () => {
    const onremove = vi.fn().mockResolvedValue(undefined);
    const onclose = vi.fn();
    render(SiteRemoveDialog, { props: { site, onremove, onclose } });
    const input = screen.getByLabelText(/^Type Harbour Lights to confirm/);
    for (const wrong of ['', 'harbour lights', 'Harbour Lights ']) {
      await fireEvent.input(input, { target: { value: wrong } });
      await fireEvent.click(screen.getByRole('button', { name: 'Delete site' }));
      expect(await screen.findByText(/Type Harbour Lights exactly/)).toBeTruthy();
    }
    expect(onremove).not.toHaveBeenCalled();
    await fireEvent.input(input, { target: { value: 'Harbour Lights' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Delete site' }));
    await waitFor(() => expect(onremove).toHaveBeenCalledWith(site, 'Harbour Lights'));
    await waitFor(() => expect(onclose).toHaveBeenCalled());
  });
});
