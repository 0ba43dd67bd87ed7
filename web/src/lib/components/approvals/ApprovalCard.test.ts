import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { approvalFixture } from '../../testing/fixtures.js';
import ApprovalCard from './ApprovalCard.svelte';

afterEach(() => cleanup());

function buttons() {
  return {
    approve: screen.getByRole('button', { name: /Approv/ }) as HTMLButtonElement,
    reject: screen.getByRole('button', { name: /Reject/ }) as HTMLButtonElement,
  };
}

/** A decision whose answer the test releases. */
function heldDecision() {
  let release!: () => void;
  const ondecide = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
  return { ondecide, release: () => release() };
}

describe('ApprovalCard', () => {
  // Property 14: for any JSON arguments, the card shows the skill name and JSON.stringify(arguments, null, 2);
  // while a decision is in flight both buttons are disabled.
  it('shows any skill name and arguments in full, and disables both buttons while either decision is in flight', async () => {
    const skillName = fc.oneof(
      fc.constantFrom('deleteCollection', 'createField', 'deleteUser'),
      fc.string({ minLength: 1, maxLength: 40 }),
    );
    const args = fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 8 });
    await fc.assert(
      fc.asyncProperty(
        skillName,
        args,
        fc.constantFrom('approved' as const, 'rejected' as const),
        async (name, argumentsValue, decision) => {
          cleanup();
          const { ondecide, release } = heldDecision();
          const { container } = render(ApprovalCard, {
            props: { approval: approvalFixture({ skillName: name, arguments: argumentsValue }), ondecide },
          });
          expect(container.querySelector('h3')?.textContent).toBe(name);
          expect(container.querySelector('pre')?.textContent).toBe(JSON.stringify(argumentsValue, null, 2));

          const { approve, reject } = buttons();
          expect(approve.disabled || reject.disabled).toBe(false);
          await fireEvent.click(decision === 'approved' ? approve : reject);
          expect(ondecide).toHaveBeenCalledExactlyOnceWith(decision, '');
          expect(approve.disabled && reject.disabled).toBe(true);
          // A second click on either does nothing while the first is in flight.
          await fireEvent.click(decision === 'approved' ? reject : approve);
          expect(ondecide).toHaveBeenCalledOnce();

          release();
          await waitFor(() => expect(approve.disabled || reject.disabled).toBe(false));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('shows which decision is loading, and sends the optional reason with a rejection only', async () => {
    const { ondecide, release } = heldDecision();
    render(ApprovalCard, { props: { approval: approvalFixture(), ondecide } });
    await fireEvent.input(screen.getByLabelText('Reason for rejecting (optional)'), { target: { value: '  not before launch  ' } });
    await fireEvent.click(buttons().reject);
    expect(screen.getByRole('button', { name: /Rejecting/ }).getAttribute('aria-busy')).toBe('true');
    expect((screen.getByLabelText('Reason for rejecting (optional)') as HTMLInputElement).disabled).toBe(true);
    expect(ondecide).toHaveBeenCalledWith('rejected', 'not before launch');
    release();
    await waitFor(() => expect(screen.getByRole('button', { name: /Reject$/ })).toBeTruthy());
    await fireEvent.click(buttons().approve);
    expect(screen.getByRole('button', { name: /Approving/ })).toBeTruthy();
    expect(ondecide).toHaveBeenLastCalledWith('approved', '');
  });

  it('keeps both buttons disabled while an approved request executes, and says so', () => {
    render(ApprovalCard, { props: { approval: approvalFixture(), ondecide: vi.fn(), executing: true } });
    const { approve, reject } = buttons();
    expect(approve.disabled && reject.disabled).toBe(true);
    expect(screen.getByRole('status').textContent).toMatch(/Executing/);
    expect(document.querySelector('[data-status]')?.getAttribute('data-status')).toBe('executing');
  });

  it('shows the context: the message, who asked, when, and a plain-words summary', () => {
    render(ApprovalCard, { props: { approval: approvalFixture(), ondecide: vi.fn() } });
    expect(screen.getByText('delete collection posts')).toBeTruthy();
    expect(screen.getByText('Ann Admin')).toBeTruthy();
    expect(document.querySelector('time')?.getAttribute('datetime')).toBe('2030-01-01T10:00:00.000Z');
    expect(screen.getByText('Deletes the collection posts and all of its items.')).toBeTruthy();
  });

  it('offers no buttons to someone who may not decide, and says why', () => {
    render(ApprovalCard, { props: { approval: approvalFixture(), cannotDecide: 'Deciding on deleteCollection also needs schema:write.' } });
    expect(screen.queryByRole('button', { name: /Approve/ })).toBeNull();
    expect(screen.getByText(/also needs schema:write/)).toBeTruthy();
  });

  it('shows a failed execution as still pending, and a note about this tab’s decision', () => {
    render(ApprovalCard, {
      props: {
        approval: approvalFixture({ lastError: 'Collection posts is locked', attempts: 1 }),
        ondecide: vi.fn(),
        note: { tone: 'warning', text: 'The job queue is unavailable, so nothing ran.' },
      },
    });
    expect(document.querySelector('[data-status]')?.textContent?.trim()).toBe('failed — still pending');
    expect(screen.getByRole('alert').textContent).toMatch(/job queue is unavailable/);
  });
});
