import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import MemberAddForm from './MemberAddForm.svelte';

afterEach(() => cleanup());

const bob = { id: 'u-bob', email: 'bob@x.io', name: 'Bob', isSuperadmin: false };

describe('MemberAddForm', () => {
  it('looks the user up by email, then adds them with the role and extra capabilities', async () => {
    const onlookup = vi.fn().mockResolvedValue(bob);
    const onadd = vi.fn().mockResolvedValue(undefined);
    render(MemberAddForm, { props: { memberIds: [], onlookup, onadd } });
    await fireEvent.input(screen.getByLabelText(/^Email/), { target: { value: ' bob@x.io ' } });
    await fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'viewer' } });
    // A viewer's preset capabilities are fixed; content:write is an extra.
    expect((screen.getByLabelText(/^schema:read/) as HTMLInputElement).disabled).toBe(true);
    await fireEvent.click(screen.getByLabelText(/^content:write/));
    await fireEvent.click(screen.getByRole('button', { name: 'Add member' }));
    await waitFor(() => expect(onadd).toHaveBeenCalled());
    expect(onlookup).toHaveBeenCalledWith('bob@x.io');
    expect(onadd).toHaveBeenCalledWith(bob, { role: 'viewer', capabilities: ['content:write'] });
    await waitFor(() => expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe(''));
  });

  it('says so next to the email when no account uses it', async () => {
    const onadd = vi.fn();
    render(MemberAddForm, { props: { memberIds: [], onlookup: vi.fn().mockResolvedValue(undefined), onadd } });
    await fireEvent.input(screen.getByLabelText(/^Email/), { target: { value: 'nobody@x.io' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add member' }));
    expect(await screen.findByText(/No account uses this email/)).toBeTruthy();
    expect(onadd).not.toHaveBeenCalled();
  });

  it('does not replace an existing membership by accident', async () => {
    const onadd = vi.fn();
    render(MemberAddForm, { props: { memberIds: ['u-bob'], onlookup: vi.fn().mockResolvedValue(bob), onadd } });
    await fireEvent.input(screen.getByLabelText(/^Email/), { target: { value: 'bob@x.io' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add member' }));
    expect(await screen.findByText(/already a member/)).toBeTruthy();
    expect(onadd).not.toHaveBeenCalled();
  });
});
