// A plan on the approval card (docs/API.md, "Runs and plans"): numbered steps with their sentences and impacts, each
// step's state as it runs (re-rendered from each pushed revision), the plan's outcome, and Edit per step (a step
// edited or removed, sent as one PATCH of `steps`), then "Approve all".
import type { ApprovalJson } from '@lumibase/shared';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { approvalFixture } from '../../testing/fixtures.js';
import ApprovalCard from './ApprovalCard.svelte';

afterEach(() => cleanup());

type Step = ApprovalJson['steps'][number];

const STEPS: Step[] = [
  { skillName: 'createCollection', arguments: { name: 'events' }, status: 'planned', impact: { summary: 'Creates the collection events' } },
  {
    skillName: 'createField',
    arguments: { collection: 'events', field: { name: 'title', type: 'string', required: true } },
    status: 'planned',
    impact: { summary: 'Adds the string field title to events (created by step 1)' },
  },
  {
    skillName: 'createField',
    arguments: { collection: 'events', field: { name: 'date', type: 'datetime' } },
    status: 'planned',
    impact: { summary: 'Adds the datetime field date to events (created by step 1)' },
  },
  {
    skillName: 'createItem',
    arguments: { collection: 'events', data: { title: 'Launch party' } },
    status: 'planned',
    impact: { summary: 'Creates 1 item in events' },
  },
];

function planFixture(overrides: Partial<ApprovalJson> = {}, statuses?: Step['status'][], extra: Partial<Step>[] = []): ApprovalJson {
  return approvalFixture({
    skillName: 'plan',
    arguments: {},
    context: { message: 'set up an events collection with a title and a date, and add the launch party', conversationId: 'c1' },
    impact: { summary: 'Creates the collection events; adds title; adds date; creates 1 item.' },
    steps: STEPS.map((step, index) => ({ ...step, status: statuses?.[index] ?? step.status, ...extra[index] })),
    ...overrides,
  });
}

const stepItems = () => [...document.querySelectorAll<HTMLLIElement>('[data-plan-steps] li[data-step]')];
const states = () => stepItems().map((item) => item.getAttribute('data-step-status'));

describe('ApprovalCard with a plan', () => {
  it('shows the steps numbered, in order, each with its sentence and impact, never a skill’s internal name', () => {
    render(ApprovalCard, { props: { approval: planFixture(), ondecide: vi.fn() } });
    expect(document.querySelector('h3')?.textContent).toBe('A plan of 4 steps');
    const items = stepItems();
    expect(items.map((item) => item.getAttribute('data-step'))).toEqual(['1', '2', '3', '4']);
    expect(items.map((item) => item.querySelector('[data-step-sentence]')?.textContent)).toEqual([
      'Step 1: Creates the collection events.',
      'Step 2: Adds the field title to events.',
      'Step 3: Adds the field date to events.',
      'Step 4: Creates an item in events.',
    ]);
    expect(items[2]?.querySelector('[data-impact]')?.textContent).toMatch(/Adds the datetime field date to events \(created by step 1\)/);
    expect(states()).toEqual(['planned', 'planned', 'planned', 'planned']);
    expect(document.querySelector('article')?.textContent).not.toMatch(/createCollection|createField|createItem/);
    expect(screen.getByRole('button', { name: 'Approve all (4 steps)' })).toBeTruthy();
  });

  it('re-renders each step’s state from each pushed revision: running, done, then all done, in words for everyone', async () => {
    const { rerender } = render(ApprovalCard, { props: { approval: planFixture(), executing: true } });
    await rerender({
      approval: planFixture({ status: 'executing', revision: 3 }, ['done', 'running', 'planned', 'planned']),
      executing: true,
    });
    expect(states()).toEqual(['done', 'running', 'planned', 'planned']);
    const second = stepItems()[1]?.querySelector('[data-step-state]');
    expect(second?.textContent).toMatch(/Running/);
    expect(second?.textContent).toMatch(/Step 2 of 4: running now/);
    expect(document.querySelector('[data-plan-progress]')?.textContent).toBe('Running step 2 of 4; 1 done.');

    await rerender({
      approval: planFixture(
        { status: 'approved', revision: 10, decidedBy: { id: 'u-bea', name: 'Bea Admin' }, decidedAt: '2030-01-01T10:05:00.000Z' },
        ['done', 'done', 'done', 'done'],
      ),
      executing: false,
    });
    expect(states()).toEqual(['done', 'done', 'done', 'done']);
    expect(stepItems()[3]?.querySelector('[data-step-state]')?.textContent).toMatch(/Done.*Step 4 of 4: done/s);
    expect(document.querySelector('[data-plan-progress]')?.textContent).toBe('All 4 steps done.');
    expect(document.querySelector('[data-outcome-line]')?.textContent).toMatch(/Approved by\s+Bea Admin/);
  });

  it('shows a rolled-back plan: the failed step with its error, the done ones undone, the rest skipped, still pending', () => {
    render(ApprovalCard, {
      props: {
        approval: planFixture(
          { lastError: 'step 3 (createField) failed: the field date already exists', attempts: 1 },
          ['undone', 'undone', 'failed', 'skipped'],
          [{}, {}, { error: 'createField: the field date already exists' }],
        ),
        ondecide: vi.fn(),
      },
    });
    expect(states()).toEqual(['undone', 'undone', 'failed', 'skipped']);
    expect(stepItems()[2]?.querySelector('[data-step-error]')?.textContent?.trim()).toBe('“Add a field”: the field date already exists');
    expect(stepItems()[3]?.querySelector('[data-step-state]')?.textContent).toMatch(/Skipped.*not run, because an earlier step failed/s);
    expect(document.querySelector('[data-plan-progress]')?.textContent).toBe(
      'Step 3 failed; the 2 steps done before it were undone, so nothing of the plan remains.',
    );
    const failed = document.querySelector('[data-plan-failed]')?.textContent ?? '';
    expect(failed).toMatch(/The plan failed: step 3 \(“Add a field”\) failed/);
    expect(failed).toMatch(/undone, so nothing of it remains\. It is still pending and can be retried/);
    expect(document.querySelector('[data-status]')?.textContent?.trim()).toBe('Failed — still pending');
  });

  it('says what a roll-back left in place: a field a step found already there is not the plan’s to remove', () => {
    const note = 'the field title of events was not added by this step (it was already there), so it was left as it is, with its values';
    render(ApprovalCard, {
      props: {
        approval: planFixture(
          { lastError: 'step 3 (createField) failed: the field date already exists', attempts: 1 },
          ['undone', 'undone', 'failed', 'skipped'],
          [{}, { undoNote: note }, { error: 'createField: the field date already exists' }],
        ),
        ondecide: vi.fn(),
      },
    });
    expect(stepItems().map((item) => item.querySelector('[data-step-undo-note]')?.textContent?.trim())).toEqual([
      undefined,
      `Left in place: ${note}`,
      undefined,
      undefined,
    ]);
    expect(document.querySelector('[data-plan-progress]')?.textContent).toBe(
      'Step 3 failed; the 2 steps done before it were undone, except what step 2 had not created itself, which was left as it was.',
    );
    const failed = document.querySelector('[data-plan-failed]')?.textContent ?? '';
    expect(failed).toMatch(/were undone, except what step 2 had not created itself, which was left as it was\. It is still pending/);
    expect(failed).not.toMatch(/nothing of it remains/);
  });

  it('says why an expired or rejected plan ended, its steps left as planned', async () => {
    const { rerender } = render(ApprovalCard, { props: { approval: planFixture({ status: 'expired', reason: 'ttl' }) } });
    expect(document.querySelector('[data-outcome-line]')?.textContent).toBe(
      'Expired: nobody decided within 72 hours; nothing was changed.',
    );
    // Nothing ran: every step is still as planned, and no progress is claimed.
    expect(states()).toEqual(['planned', 'planned', 'planned', 'planned']);
    expect(document.querySelector('[data-plan-progress]')?.textContent).toBe('');
    await rerender({
      approval: planFixture({ status: 'rejected', reason: 'not this quarter', decidedBy: { id: 'u-bea', name: 'Bea Admin' } }),
    });
    expect(document.querySelector('[data-outcome-line]')?.textContent).toMatch(/Rejected by\s+Bea Admin.*“not this quarter”/s);
  });

  it('edits one step in its generated form and removes another: one PATCH of steps, null for the removed, the others as they are', async () => {
    const onedit = vi.fn(async () => ({ ok: true as const, approval: planFixture({ revision: 2 }) }));
    const ondecide = vi.fn(async () => {});
    render(ApprovalCard, { props: { approval: planFixture(), ondecide, onedit } });
    await fireEvent.click(screen.getByRole('button', { name: /^Edit$/ }));
    const save = () => screen.getByRole('button', { name: /Save edit/ }) as HTMLButtonElement;
    expect(save().disabled).toBe(true);
    expect(screen.queryByRole('button', { name: /Approve/ })).toBeNull();

    await fireEvent.click(screen.getByRole('button', { name: 'Edit step 3' }));
    const name = document.getElementById('approval-ap-1-step-3-arg-field-name') as HTMLInputElement;
    expect(name.value).toBe('date');
    await fireEvent.input(name, { target: { value: 'Starts At' } });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(`${name.id}-error`)?.textContent).toMatch(/Use lowercase letters, digits and _/);
    expect(save().disabled).toBe(true);
    await fireEvent.input(name, { target: { value: 'starts_at' } });
    expect(document.querySelector('li[data-step="3"] [data-diff]')?.textContent).toMatch(/Field › Name: date → starts_at/);

    await fireEvent.click(screen.getByRole('button', { name: 'Remove step 4' }));
    expect(document.querySelector('li[data-step="4"]')?.getAttribute('data-step-edit')).toBe('removed');
    expect(save().disabled).toBe(false);
    await fireEvent.click(save());
    expect(onedit).toHaveBeenCalledExactlyOnceWith({
      steps: [
        { arguments: STEPS[0]?.arguments },
        { arguments: STEPS[1]?.arguments },
        { arguments: { collection: 'events', field: { name: 'starts_at', type: 'datetime', required: false } } },
        null,
      ],
    });
    expect(ondecide).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Approve all (4 steps)' })).toBeTruthy());
    expect(document.querySelector('[data-edit-note]')?.textContent).toMatch(/Edit saved\. Nothing has run/);
  });

  it('keeps one step at least: the last remaining step cannot be removed', async () => {
    const two = planFixture({ steps: STEPS.slice(0, 2) });
    render(ApprovalCard, { props: { approval: two, ondecide: vi.fn(), onedit: vi.fn() } });
    await fireEvent.click(screen.getByRole('button', { name: /^Edit$/ }));
    await fireEvent.click(screen.getByRole('button', { name: 'Remove step 1' }));
    expect((screen.getByRole('button', { name: 'Remove step 2' }) as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.click(screen.getByRole('button', { name: 'Keep step 1' }));
    expect((screen.getByRole('button', { name: 'Remove step 2' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows the server’s refusal of a step at that step’s input, in words', async () => {
    const onedit = vi.fn(async () => ({
      ok: false as const,
      status: 400,
      message: 'Validation failed',
      details: [{ path: 'steps.1.arguments.field.name', message: 'must match ^[a-z][a-z0-9_]{0,63}$' }],
    }));
    render(ApprovalCard, { props: { approval: planFixture(), ondecide: vi.fn(), onedit } });
    await fireEvent.click(screen.getByRole('button', { name: /^Edit$/ }));
    await fireEvent.click(screen.getByRole('button', { name: 'Remove step 4' }));
    await fireEvent.click(screen.getByRole('button', { name: /Save edit/ }));
    await waitFor(() => expect(document.getElementById('approval-ap-1-step-2-arg-field-name-error')).toBeTruthy());
    const error = document.getElementById('approval-ap-1-step-2-arg-field-name-error')?.textContent ?? '';
    expect(error).toMatch(/Use lowercase letters, digits and _/);
    expect(error).not.toMatch(/\^|\$/);
  });
});
