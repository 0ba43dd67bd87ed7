import { describe, expect, it, vi } from 'vitest';
import { approvalFixture } from '../testing/fixtures.js';
import { ApprovalDecisionDraft } from './approval-decision.svelte.js';

function draftFor(approval = approvalFixture(), { executing = false } = {}) {
  let release!: () => void;
  const ondecide = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
  const decision = new ApprovalDecisionDraft({ approval: () => approval, ondecide: () => ondecide, executing: () => executing });
  return { decision, ondecide, release: () => release() };
}

describe('ApprovalDecisionDraft', () => {
  it('is busy while a decision is in flight, and starts no second one meanwhile', async () => {
    const { decision, ondecide, release } = draftFor(approvalFixture({ skillName: 'createField', arguments: { collection: 'posts' } }));
    decision.reason = '  not now ';
    const rejecting = decision.decide('rejected');
    expect(decision.busy).toBe(true);
    expect(decision.processing).toBe('rejected');
    await decision.decide('approved');
    expect(ondecide).toHaveBeenCalledExactlyOnceWith('rejected', 'not now');
    release();
    await rejecting;
    expect(decision.busy).toBe(false);
  });

  it('is busy while the approved skill executes', () => {
    expect(draftFor(approvalFixture(), { executing: true }).decision.busy).toBe(true);
  });

  it('approves deleting a collection only once its name is typed', async () => {
    const { decision, ondecide, release } = draftFor(approvalFixture({ skillName: 'deleteCollection', arguments: { name: 'posts' } }));
    expect(decision.mustType).toBe('posts');
    await decision.decide('approved');
    expect(ondecide).not.toHaveBeenCalled();
    decision.typedName = 'posts ';
    const approving = decision.decide('approved');
    release();
    await approving;
    expect(ondecide).toHaveBeenCalledExactlyOnceWith('approved', '');
  });

  it('edits through a form: errors in words, the change listed, saved as an edit (not a decision) and left on success', async () => {
    const approval = approvalFixture({
      skillName: 'createField',
      arguments: { collection: 'posts', field: { name: 'teaser', type: 'string', required: false } },
    });
    const ondecide = vi.fn(async () => {});
    const onedit = vi.fn(async () => ({ ok: true as const, approval }));
    const decision = new ApprovalDecisionDraft({
      approval: () => approval,
      ondecide: () => ondecide,
      onedit: () => onedit,
      executing: () => false,
    });
    expect(decision.canEdit).toBe(true);
    decision.startEditing();
    expect(decision.values).toMatchObject({ collection: 'posts', 'field.name': 'teaser', 'field.type': 'string', 'field.required': false });
    expect(decision.canSave).toBe(false);
    decision.setValue('field.name', 'Stand First');
    expect(decision.errors['field.name']).toMatch(/^Use lowercase letters/);
    expect(decision.errors['field.name']).not.toMatch(/\^|\[a-z\]/);
    await decision.save();
    expect(onedit).not.toHaveBeenCalled();
    decision.setValue('field.name', 'standfirst');
    expect(decision.changes).toEqual([{ label: 'Field › Name', from: 'teaser', to: 'standfirst' }]);
    // Approving waits until the edit is saved.
    await decision.decide('approved');
    expect(ondecide).not.toHaveBeenCalled();
    await decision.save();
    expect(onedit).toHaveBeenCalledExactlyOnceWith({
      arguments: { collection: 'posts', field: { name: 'standfirst', type: 'string', required: false } },
    });
    expect(decision.editing).toBe(false);
    expect(decision.editNote?.tone).toBe('success');
  });

  it('places the server’s refusal of a save at the input it concerns, in words', async () => {
    const approval = approvalFixture({ skillName: 'deleteCollection', arguments: { name: 'posts' } });
    const onedit = vi.fn(async () => ({
      ok: false as const,
      status: 400,
      message: 'Invalid arguments for deleteCollection',
      details: [{ path: 'arguments.name', message: 'must match ^[a-z][a-z0-9_]{0,63}$' }],
    }));
    const decision = new ApprovalDecisionDraft({
      approval: () => approval,
      ondecide: () => undefined,
      onedit: () => onedit,
      executing: () => false,
    });
    decision.startEditing();
    decision.setValue('name', 'pages');
    await decision.save();
    expect(decision.editing).toBe(true);
    expect(decision.errors).toEqual({ name: expect.stringMatching(/^Use lowercase letters, digits and _/) });
  });
});
