// The card names the outside agent an approval came through (MCP) by the name the agent gave itself, said to be its own
// claim, and nothing more for the Copilot's own requests.
import { cleanup, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { approvalFixture } from '../../testing/fixtures.js';
import ApprovalCard from './ApprovalCard.svelte';

afterEach(() => cleanup());

const who = () => document.querySelector('.who')?.textContent?.replace(/\s+/g, ' ') ?? '';

describe('ApprovalCard asked through MCP', () => {
  it('says the client’s name is its own claim: "through an MCP client that calls itself “<client>”"', () => {
    const approval = approvalFixture();
    render(ApprovalCard, {
      props: { approval: { ...approval, context: { ...approval.context, via: 'mcp', client: 'Claude Desktop' } }, ondecide: vi.fn() },
    });
    expect(who()).toContain('Asked by Ann Admin through an MCP client that calls itself “Claude Desktop”');
  });

  it('says "through an MCP client" when the client gave no name', () => {
    const approval = approvalFixture();
    render(ApprovalCard, { props: { approval: { ...approval, context: { ...approval.context, via: 'mcp' } }, ondecide: vi.fn() } });
    expect(who()).toContain('Asked by Ann Admin through an MCP client ·');
    expect(who()).not.toContain('calls itself');
  });

  it('names no client for a Copilot request', () => {
    render(ApprovalCard, { props: { approval: approvalFixture(), ondecide: vi.fn() } });
    expect(who()).not.toContain('through');
  });
});
