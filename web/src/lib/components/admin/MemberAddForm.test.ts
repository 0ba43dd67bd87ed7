import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error.js';
import MemberAddForm from './MemberAddForm.svelte';

afterEach(() => cleanup());

const bob = { id: 'u-bob', email: 'bob@x.io', name: 'Bob', isSuperadmin: false };
const member = (user = bob) => ({
  userId: user.id,
  user,
  role: 'viewer' as const,
  capabilities: [],
  extraCapabilities: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('MemberAddForm', () => {
  it('adds by email in one step with the role and extra capabilities, and shows no password for an existing account', async () => {
    const onadd = vi.fn().mockResolvedValue({ member: member() });
    render(MemberAddForm, { props: { onadd } });
    await fireEvent.input(screen.getByLabelText(/^Email/), { target: { value: ' bob@x.io ' } });
    await fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'viewer' } });
    // A viewer's preset capabilities are fixed; content:write is an extra.
    expect((screen.getByLabelText(/^schema:read/) as HTMLInputElement).disabled).toBe(true);
    await fireEvent.click(screen.getByLabelText(/^content:write/));
    await fireEvent.click(screen.getByRole('button', { name: 'Add member' }));
    await waitFor(() => expect(onadd).toHaveBeenCalled());
    expect(onadd).toHaveBeenCalledWith({ email: 'bob@x.io', role: 'viewer', capabilities: ['content:write'] });
    await waitFor(() => expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe(''));
    expect(screen.queryByTestId('one-time-password')).toBeNull();
  });

  it('shows a new account’s password once, with a copy button, until dismissed', async () => {
    const ann = { id: 'u-ann', email: 'ann@x.io', name: 'Ann', isSuperadmin: false };
    const onadd = vi.fn().mockResolvedValue({ member: member(ann), password: 'generated-secret' });
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(MemberAddForm, { props: { onadd } });
    await fireEvent.input(screen.getByLabelText(/^Email/), { target: { value: 'ann@x.io' } });
    await fireEvent.input(screen.getByLabelText(/^Name/), { target: { value: ' Ann ' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add member' }));
    expect((await screen.findByTestId('one-time-password')).textContent).toBe('generated-secret');
    expect(onadd).toHaveBeenCalledWith({ email: 'ann@x.io', name: 'Ann', role: 'editor' });
    await fireEvent.click(screen.getByRole('button', { name: 'Copy password' }));
    expect(writeText).toHaveBeenCalledWith('generated-secret');
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('one-time-password')).toBeNull();
  });

  it('shows the server’s objection by the name input when a new account needs a name', async () => {
    const onadd = vi.fn().mockRejectedValue(
      new ApiError({
        status: 400,
        code: 'VALIDATION_FAILED',
        message: 'Nobody has this email yet',
        details: [{ path: 'name', message: 'Required for a new account' }],
      }),
    );
    render(MemberAddForm, { props: { onadd } });
    await fireEvent.input(screen.getByLabelText(/^Email/), { target: { value: 'nobody@x.io' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add member' }));
    expect(await screen.findByText(/Required for a new account/)).toBeTruthy();
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).getAttribute('aria-invalid')).toBe('true');
  });

  it('asks for an email before calling the server', async () => {
    const onadd = vi.fn();
    render(MemberAddForm, { props: { onadd } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add member' }));
    expect(await screen.findByText(/Enter the email/)).toBeTruthy();
    expect(onadd).not.toHaveBeenCalled();
  });
});
