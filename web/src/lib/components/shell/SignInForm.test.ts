import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error.js';
import SignInForm from './SignInForm.svelte';

afterEach(() => cleanup());

async function fillAndSubmit(email: string, password: string) {
  await fireEvent.input(screen.getByLabelText('Email'), { target: { value: email } });
  await fireEvent.input(screen.getByLabelText('Password'), { target: { value: password } });
  await fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('SignInForm', () => {
  it('says inline that the credentials do not match, and clears the password', async () => {
    const onsubmit = vi.fn().mockRejectedValue(new ApiError({ status: 401, code: 'UNAUTHENTICATED', message: 'Invalid credentials' }));
    render(SignInForm, { props: { onsubmit } });
    await fillAndSubmit('ann@x.io', 'wrong-password');
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'That email and password do not match an account.');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect(onsubmit).toHaveBeenCalledWith({ email: 'ann@x.io', password: 'wrong-password' });
  });

  it('disables every control while signing in', async () => {
    let finish!: () => void;
    render(SignInForm, { props: { onsubmit: () => new Promise<void>((resolve) => (finish = resolve)) } });
    await fillAndSubmit('ann@x.io', 'secret-pass');
    const fieldset = screen.getByLabelText('Email').closest('fieldset')!;
    expect(fieldset.disabled).toBe(true);
    expect(screen.getByRole('button', { name: /Signing in/ })).toBeTruthy();
    finish();
    await waitFor(() => expect(fieldset.disabled).toBe(false));
  });

  it('asks for both fields before sending anything', async () => {
    const onsubmit = vi.fn();
    render(SignInForm, { props: { onsubmit } });
    await fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(onsubmit).not.toHaveBeenCalled();
    expect(screen.getByText('Enter your email')).toBeTruthy();
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true');
  });

  it('puts a 400 detail on its input and explains rate limiting', async () => {
    const onsubmit = vi
      .fn()
      .mockRejectedValueOnce(
        new ApiError({
          status: 400,
          code: 'VALIDATION_FAILED',
          message: 'Invalid',
          details: [{ path: 'email', message: 'Invalid email address' }],
        }),
      )
      .mockRejectedValueOnce(new ApiError({ status: 429, code: 'RATE_LIMITED', message: 'Too many' }));
    render(SignInForm, { props: { onsubmit } });
    await fillAndSubmit('not-an-email', 'x');
    expect(await screen.findByText('Invalid email address')).toBeTruthy();
    await fillAndSubmit('ann@x.io', 'x');
    expect((await screen.findByRole('alert')).textContent).toMatch(/Too many attempts/);
  });
});
