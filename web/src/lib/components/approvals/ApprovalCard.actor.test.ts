// Display names are free and not unique: the card shows the email beside the requester, decider and editor.
import { cleanup, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { approvalFixture } from '../../testing/fixtures.js';
import ApprovalCard from './ApprovalCard.svelte';

afterEach(() => cleanup());

const asker = { id: 'u1', name: 'Sam', email: 'sam@one.test' };
const decider = { id: 'u2', name: 'Sam', email: 'sam@two.test' };

describe('ApprovalCard: who acted', () => {
  it('shows “Asked by Sam (email)” on a pending card', () => {
    const { container } = render(ApprovalCard, { props: { approval: approvalFixture({ requestedBy: asker }), ondecide: async () => {} } });
    expect(container.querySelector('.who')?.textContent?.replace(/\s+/g, ' ')).toContain('Asked by Sam (sam@one.test)');
  });

  it('tells the decider and editor apart from a requester of the same name by email', () => {
    const approval = approvalFixture({
      status: 'approved',
      requestedBy: asker,
      decidedBy: decider,
      decidedAt: new Date().toISOString(),
      editedBy: decider,
      originalArguments: { name: 'proposed' },
    });
    const { container } = render(ApprovalCard, { props: { approval, ondecide: async () => {} } });
    const text = container.textContent?.replace(/\s+/g, ' ') ?? '';
    expect(text).toContain('Asked by Sam (sam@one.test)');
    expect(text).toContain('Approved by Sam (sam@two.test)');
    expect(text).toContain('Edited by Sam (sam@two.test)');
  });

  it('shows the name alone for an older approval stored without an email', () => {
    const { container } = render(ApprovalCard, {
      props: { approval: approvalFixture({ requestedBy: { id: 'u1', name: 'Sam' } }), ondecide: async () => {} },
    });
    expect(container.querySelector('.who')?.textContent?.replace(/\s+/g, ' ')).toContain('Asked by Sam ·');
    expect(container.querySelector('[data-actor-email]')).toBeNull();
  });
});
