import type { AuditVerification } from '@lumibase/shared';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Resource } from '../../state/resource.svelte.js';
import AuditChainStatus from './AuditChainStatus.svelte';

afterEach(() => cleanup());

function setup(answers: AuditVerification[]) {
  let call = 0;
  const verify = vi.fn(async () => answers[Math.min(call++, answers.length - 1)]!);
  const verification = new Resource(verify);
  void verification.load();
  const view = render(AuditChainStatus, { props: { verification } });
  const chain = () => view.container.querySelector<HTMLElement>('[data-chain]')!;
  return { ...view, verify, chain };
}

describe('AuditChainStatus', () => {
  it('says the chain is valid with its number of entries', async () => {
    const { chain } = setup([{ valid: true, entries: 12 }]);
    await waitFor(() => expect(chain().dataset.chain).toBe('valid'));
    expect(screen.getByRole('status').textContent).toMatch(/Valid\s*12 entries verified/);
  });

  it('names the first broken entry in the danger style, and checks again on demand', async () => {
    const { chain, verify } = setup([
      { valid: true, entries: 3 },
      { valid: false, entries: 3, brokenAt: 2 },
    ]);
    await waitFor(() => expect(chain().dataset.chain).toBe('valid'));
    await fireEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(chain().dataset.chain).toBe('broken'));
    expect(verify).toHaveBeenCalledTimes(2);
    expect(chain().classList.contains('broken')).toBe(true);
    expect(screen.getByRole('alert').textContent).toMatch(/Broken at #2.*broken at entry #2/s);
  });
});
