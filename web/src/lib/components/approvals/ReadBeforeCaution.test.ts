import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { approvalFixture } from '../../testing/fixtures.js';
import ApprovalCard from './ApprovalCard.svelte';
import ReadBeforeCaution from './ReadBeforeCaution.svelte';

afterEach(() => cleanup());

const readBefore = [
  { skill: 'listItems', collection: 'posts', id: 'p1' },
  { skill: 'listItems', collection: 'posts', id: 'p2' },
  { skill: 'listItems', collection: 'posts', id: 'p3' },
];

describe('ReadBeforeCaution', () => {
  it('cautions, as a warning, with what the model read', () => {
    const { container } = render(ReadBeforeCaution, { props: { readBefore } });
    const caution = container.querySelector('[data-read-before]');
    expect(caution?.classList.contains('alert-warning')).toBe(true);
    expect(caution?.textContent).toContain('Proposed after reading 3 items of posts.');
    expect(caution?.textContent).toContain('may have steered this request');
  });

  it('renders nothing when the model read nothing', () => {
    for (const value of [undefined, []]) {
      const { container } = render(ReadBeforeCaution, { props: { readBefore: value } });
      expect(container.querySelector('[data-read-before]')).toBeNull();
      cleanup();
    }
  });

  it('appears on the approval card when the approval carries readBefore, and only then', () => {
    const withReads = approvalFixture({ context: { message: 'tidy up posts', conversationId: 'c1', readBefore } });
    render(ApprovalCard, { props: { approval: withReads, ondecide: vi.fn() } });
    expect(screen.getByText('Proposed after reading 3 items of posts.')).toBeTruthy();
    cleanup();

    const { container } = render(ApprovalCard, { props: { approval: approvalFixture(), ondecide: vi.fn() } });
    expect(container.querySelector('[data-read-before]')).toBeNull();
  });
});
