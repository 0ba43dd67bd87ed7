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

  it('sends edited arguments only when they changed and are valid', async () => {
    const approval = approvalFixture({
      skillName: 'createField',
      arguments: { collection: 'posts', field: { name: 'a', type: 'string', required: false } },
    });
    const { decision, ondecide, release } = draftFor(approval);
    decision.startEditing();
    expect(decision.changes).toEqual([]);
    decision.draft = '{ not json';
    expect(decision.check?.ok).toBe(false);
    await decision.decide('approved');
    expect(ondecide).not.toHaveBeenCalled();
    decision.draft = JSON.stringify({ collection: 'pages', field: { name: 'a', type: 'string', required: false } });
    expect(decision.changes.map((change) => change.key)).toEqual(['collection']);
    const approving = decision.decide('approved');
    release();
    await approving;
    expect(ondecide).toHaveBeenCalledExactlyOnceWith('approved', '', {
      collection: 'pages',
      field: { name: 'a', type: 'string', required: false },
    });
    expect(decision.editing).toBe(false);
  });
});
