import { skillLabel } from '../../format/approval-outcome.js';
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
          // The heading is the skill's label (never the internal name, which stays in data-skill).
          expect(container.querySelector('h3')?.textContent).toBe(skillLabel(name));
          expect(container.querySelector('h3')?.getAttribute('data-skill')).toBe(name);
          expect(container.querySelector('pre')?.textContent).toBe(JSON.stringify(argumentsValue, null, 2));

          // Deleting a named collection is approved only after typing its name.
          const confirmName = container.querySelector<HTMLInputElement>('input[id$="-confirm"]');
          if (confirmName) await fireEvent.input(confirmName, { target: { value: String(argumentsValue.name) } });
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
    // A hundred renders: generous on a loaded machine.
  }, 30_000);

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
    await fireEvent.input(screen.getByLabelText(/^Type posts to approve/), { target: { value: 'posts' } });
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
    expect(document.querySelector('[data-status]')?.textContent?.trim()).toBe('Failed — still pending');
    expect(screen.getByRole('alert').textContent).toMatch(/job queue is unavailable/);
  });

  it('approves deleting a collection only once its name is typed', async () => {
    const ondecide = vi.fn(() => Promise.resolve());
    render(ApprovalCard, { props: { approval: approvalFixture(), ondecide } });
    const confirm = screen.getByLabelText(/^Type posts to approve/);
    expect(buttons().approve.disabled).toBe(true);
    await fireEvent.input(confirm, { target: { value: 'post' } });
    expect(buttons().approve.disabled).toBe(true);
    await fireEvent.input(confirm, { target: { value: 'posts' } });
    expect(buttons().approve.disabled).toBe(false);
    await fireEvent.click(buttons().approve);
    expect(ondecide).toHaveBeenCalledWith('approved', '');
  });

  it('asks for no typed name for other skills', () => {
    render(ApprovalCard, {
      props: { approval: approvalFixture({ skillName: 'deleteField', arguments: { collection: 'posts', field: 'x' } }), ondecide: vi.fn() },
    });
    expect(screen.queryByLabelText(/^Type/)).toBeNull();
    expect(buttons().approve.disabled).toBe(false);
  });

  it('marks one’s own request "You asked" and offers to withdraw it (a rejection)', async () => {
    const ondecide = vi.fn(() => Promise.resolve());
    render(ApprovalCard, { props: { approval: approvalFixture(), ondecide, mine: true } });
    expect(screen.getByText('You asked')).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(ondecide).toHaveBeenCalledWith('rejected', '');
  });

  it('shows the impact and the time left before the request expires', () => {
    const expiresAt = new Date(Date.now() + (2 * 24 + 5) * 3600_000 + 30_000).toISOString();
    render(ApprovalCard, {
      props: {
        approval: approvalFixture({
          expiresAt,
          impact: { summary: 'Deletes the collection posts and its 2 items', items: [{ id: 'i1', title: 'Hello' }, { id: 'i2' }] },
        }),
        ondecide: vi.fn(),
      },
    });
    expect(screen.getByText(/Deletes the collection posts and its 2 items/)).toBeTruthy();
    expect(screen.getByText('Hello')).toBeTruthy();
    expect(document.querySelector('[data-time-left]')?.textContent?.trim()).toBe('2 days 5 hours left');
    // No trash retention in the impact: nothing said about restoring.
    expect(document.querySelector('[data-restorable]')).toBeNull();
  });

  it('says a deletion can be restored from the trash, and for how long', () => {
    render(ApprovalCard, {
      props: {
        approval: approvalFixture({ impact: { summary: 'Deletes the collection posts and its 2 items', restorableDays: 30 } }),
        ondecide: vi.fn(),
      },
    });
    expect(document.querySelector('[data-restorable]')?.textContent?.trim()).toBe('It goes to the trash: it can be restored for 30 days.');
  });

  it('edits the arguments in a form: errors in words, the diff, saved before Approve is offered with the new impact', async () => {
    const ondecide = vi.fn(async () => {});
    const approval = approvalFixture({ impact: { summary: 'Deletes the collection posts and its 3 items' } });
    const edited = approvalFixture({
      revision: 2,
      arguments: { name: 'drafts' },
      originalArguments: { name: 'posts' },
      editedBy: { id: 'u-bea', name: 'Bea Admin' },
      impact: { summary: 'Deletes the collection drafts and its 0 items' },
    });
    const onedit = vi.fn(async () => ({ ok: true as const, approval: edited }));
    const { rerender } = render(ApprovalCard, { props: { approval, ondecide, onedit } });
    await fireEvent.click(screen.getByRole('button', { name: /Edit/ }));
    expect(screen.queryByRole('button', { name: /Approve/ })).toBeNull();
    const name = screen.getByRole('textbox', { name: /^Name/ }) as HTMLInputElement;
    expect(name.value).toBe('posts');
    await fireEvent.input(name, { target: { value: 'Not A Name' } });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    const error = document.getElementById(`${name.id}-error`)?.textContent ?? '';
    expect(error).toMatch(/Use lowercase letters, digits and _/);
    expect(error).not.toMatch(/\^|\$|\[a-z/);
    expect((screen.getByRole('button', { name: /Save edit/ }) as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.input(name, { target: { value: 'drafts' } });
    expect(document.querySelector('[data-diff]')?.textContent).toMatch(/Name: posts → drafts/);
    await fireEvent.click(screen.getByRole('button', { name: /Save edit/ }));
    expect(onedit).toHaveBeenCalledExactlyOnceWith({ arguments: { name: 'drafts' } });
    expect(ondecide).not.toHaveBeenCalled();
    // The store answers with the new revision: the card shows its impact, who edited it, and offers Approve again.
    await rerender({ approval: edited, ondecide, onedit });
    await waitFor(() => expect(screen.getByText('Deletes the collection drafts and its 0 items')).toBeTruthy());
    expect(document.querySelector('[data-edited-by]')?.textContent).toMatch(/Edited by Bea Admin.*Name: posts → drafts/s);
    await fireEvent.input(screen.getByLabelText(/^Type drafts to approve/), { target: { value: 'drafts' } });
    await fireEvent.click(screen.getByRole('button', { name: /^Approve$/ }));
    expect(ondecide).toHaveBeenCalledExactlyOnceWith('approved', '');
  });

  it('lets a requester withdraw but not approve when the policy needs someone else, and says why', () => {
    render(ApprovalCard, {
      props: { approval: approvalFixture(), ondecide: vi.fn(), cannotApprove: 'Someone other than the requester must approve.' },
    });
    expect(screen.queryByRole('button', { name: /Approve/ })).toBeNull();
    expect(screen.getByRole('button', { name: /Reject/ })).toBeTruthy();
    expect(document.querySelector('[data-cannot-approve]')?.textContent).toMatch(/Someone other than the requester/);
  });
});
