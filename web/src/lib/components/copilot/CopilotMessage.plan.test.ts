// A plan in the requester's Copilot panel (docs/API.md, "Runs and plans"): the turn's planned calls show as one plan of
// numbered steps (not one request per call), each step's state followed live from the approval, and the outcome.
import type { ApprovalJson, ChatResponse } from '@lumibase/shared';
import { cleanup, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { approvalFixture } from '../../testing/fixtures.js';
import CopilotMessage from './CopilotMessage.svelte';

afterEach(() => cleanup());

const CALLS = [
  { name: 'createCollection', arguments: { name: 'events' } },
  { name: 'createField', arguments: { collection: 'events', field: { name: 'date', type: 'datetime' } } },
  { name: 'createItem', arguments: { collection: 'events', data: { title: 'Launch party' } } },
];

function reply(): ChatResponse {
  const results = CALLS.map((skill, index) => ({
    status: 'pending_approval' as const,
    skill,
    approvalId: 'p1',
    step: index + 1,
    message: `${skill.name} is step ${index + 1} of a plan waiting for approval.`,
  }));
  return { ...results[0]!, reply: 'I planned it; an admin must approve it.', conversationId: 'c1', results };
}

function planAt(statuses: ApprovalJson['steps'][number]['status'][], overrides: Partial<ApprovalJson> = {}): ApprovalJson {
  return approvalFixture({
    id: 'p1',
    skillName: 'plan',
    arguments: {},
    createdAt: new Date().toISOString(),
    steps: CALLS.map((call, index) => ({ skillName: call.name, arguments: call.arguments, status: statuses[index] ?? 'planned' })),
    ...overrides,
  });
}

const message = { id: 1, role: 'assistant' as const, kind: 'reply' as const, reply: reply(), at: new Date() };
const states = () => [...document.querySelectorAll('[data-plan-steps] li[data-step]')].map((item) => item.getAttribute('data-step-status'));

describe('CopilotMessage with a plan', () => {
  it('shows the planned calls as one plan of numbered steps, followed live to its outcome', async () => {
    let approval = planAt([]);
    const { rerender } = render(CopilotMessage, { props: { message, approvalOf: () => approval, canReview: () => true } });
    expect(document.querySelectorAll('[data-approval-id="p1"]')).toHaveLength(1);
    expect(document.querySelector('[data-plan]')?.textContent).toBe("A plan of 3 steps needs an admin's approval");
    expect([...document.querySelectorAll('[data-step-sentence]')].map((item) => item.textContent)).toEqual([
      'Step 1: Creates the collection events.',
      'Step 2: Adds the field date to events.',
      'Step 3: Creates an item in events.',
    ]);
    expect(document.querySelector('a.review')?.getAttribute('href')).toBe('/settings/ai-approvals#approval-p1');

    approval = planAt(['done', 'running'], { status: 'executing', decidedBy: { id: 'u-bea', name: 'Bea Admin' } });
    await rerender({ message, approvalOf: () => approval, canReview: () => true });
    expect(states()).toEqual(['done', 'running', 'planned']);

    approval = planAt(['done', 'done', 'done'], { status: 'approved', decidedBy: { id: 'u-bea', name: 'Bea Admin' } });
    await rerender({ message, approvalOf: () => approval, canReview: () => true });
    expect(states()).toEqual(['done', 'done', 'done']);
    expect(document.querySelector('[data-approval-line="p1"]')?.textContent).toBe('Approved by Bea Admin; all 3 steps done.');
    expect(document.body.textContent).not.toMatch(/createCollection|createField|createItem/);
  });
});
