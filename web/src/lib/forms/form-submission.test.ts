import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/index.js';
import { FormSubmission } from './form-submission.svelte.js';

const invalid = new ApiError({
  status: 400,
  code: 'VALIDATION_FAILED',
  message: 'Invalid request',
  details: [
    { path: 'name', message: 'Too long' },
    { path: 'other', message: 'Unknown' },
  ],
});

describe('FormSubmission', () => {
  it('does not send when the form’s own checks object, and shows them by their inputs', async () => {
    const form = new FormSubmission({ inputs: ['name'] });
    let sent = false;
    const outcome = await form.submit(
      async () => {
        sent = true;
      },
      () => ({ name: ['Give it a name'] }),
    );
    expect({ outcome, sent, errors: form.errors, busy: form.busy }).toEqual({
      outcome: 'invalid',
      sent: false,
      errors: { name: ['Give it a name'] },
      busy: false,
    });
  });

  it('is busy while the request is in flight', async () => {
    const form = new FormSubmission({ inputs: [] });
    let busyInside = false;
    expect(
      await form.submit(async () => {
        busyInside = form.busy;
      }),
    ).toBe('done');
    expect({ busyInside, busy: form.busy }).toEqual({ busyInside: true, busy: false });
  });

  it('puts validation details by their inputs and the rest in the general message', async () => {
    const form = new FormSubmission({ inputs: ['name'] });
    expect(await form.submit(() => Promise.reject(invalid))).toBe('failed');
    expect({ errors: form.errors, general: form.general }).toEqual({ errors: { name: ['Too long'] }, general: 'other: Unknown' });
  });

  it('lets the form explain other refusals, and describes the rest', async () => {
    const conflict = new ApiError({ status: 409, code: 'CONFLICT', message: 'exists' });
    const form = new FormSubmission({
      inputs: ['name'],
      explain: (error) => (error.code === 'CONFLICT' ? { fields: { name: ['Taken'] } } : undefined),
    });
    await form.submit(() => Promise.reject(conflict));
    expect(form.errors).toEqual({ name: ['Taken'] });
    await form.submit(() => Promise.reject(new ApiError({ status: 403, code: 'FORBIDDEN', message: 'no' })));
    expect({ errors: form.errors, general: form.general }).toEqual({
      errors: {},
      general: "You don't have permission to do that in this site.",
    });
  });
});
