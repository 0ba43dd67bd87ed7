// The card names the outside agent an approval came through (MCP), and nothing more for the Copilot's own requests.
import { cleanup, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { approvalFixture } from '../../testing/fixtures.js';
import ApprovalCard from './ApprovalCard.svelte';

afterEach(() => cleanup());

const who = () => document.querySelector('.who')?.textContent?.replace(/\s+/g, ' ') ?? '';

describe('ApprovalCard asked through MCP', () => {
  it('says "asked by <user> through <client>" when the approval came over MCP', () => {
    const approval = approvalFixture();
    render(ApprovalCard, {
      props: { approval: { ...approval, context: { ...approval.context, via: 'mcp', client: 'Claude Desktop' } }, ondecide: vi.fn() },
    });
    expect(who()).toContain('Asked by Ann Admin through Claude Desktop');
  });

  it('names no client for a Copilot request', () => {
    render(ApprovalCard, { props: { approval: approvalFixture(), ondecide: vi.fn() } });
    expect(who()).not.toContain('through');
  });
});
