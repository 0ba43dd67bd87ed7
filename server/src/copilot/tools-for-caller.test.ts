// The one tool filter (docs/API.md, "AI Copilot"): the chat's tools and MCP's tool list are the same skills for every caller
// and policy: those the caller's capabilities allow and the site's policy does not turn off.
import { CAPABILITIES, type CopilotPolicy, effectivePolicy, getSkillToolSpecs, SKILL_MODES, SKILL_NAMES, WILDCARD } from '@lumibase/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolsFor } from '../mcp/mcp-tools.js';
import { offersSkill, toolsForCaller } from './tools-for-caller.js';

const SPECS = getSkillToolSpecs();
const DEFAULTS = effectivePolicy(null);
const viewer = { capabilities: ['schema:read', 'content:read'], isSuperadmin: false };
const editor = { capabilities: ['schema:read', 'content:read', 'content:write'], isSuperadmin: false };

const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);

describe('the tools a caller is given', () => {
  it('are the skills the caller’s capabilities allow', () => {
    expect(names(toolsForCaller(SPECS, viewer, DEFAULTS).tools)).toEqual([
      'listCollections',
      'listItems',
      'aiSuggestField',
      'aiContentAssist',
      'searchItems',
    ]);
    expect(names(toolsForCaller(SPECS, editor, DEFAULTS).tools)).toEqual([
      'listCollections',
      'listItems',
      'createItem',
      'updateItem',
      'deleteItem',
      'aiSuggestField',
      'aiContentAssist',
      'searchItems',
    ]);
  });

  it('leave out what the site’s policy turns off, and name it', () => {
    const policy: CopilotPolicy = { ...DEFAULTS, skills: { ...DEFAULTS.skills, listItems: 'off', deleteItem: 'off' } };
    const { tools, turnedOff } = toolsForCaller(SPECS, editor, policy);
    expect(names(tools)).toEqual(['listCollections', 'createItem', 'updateItem', 'aiSuggestField', 'aiContentAssist', 'searchItems']);
    expect(turnedOff).toEqual(['listItems', 'deleteItem']);
    expect(names(toolsFor(editor, policy))).toEqual(names(tools));
  });

  it('count `*` for a superadmin only, and no unknown skill', () => {
    expect(names(toolsForCaller(SPECS, { capabilities: [WILDCARD], isSuperadmin: true }, DEFAULTS).tools)).toEqual(SKILL_NAMES);
    expect(toolsForCaller(SPECS, { capabilities: [WILDCARD], isSuperadmin: false }, DEFAULTS).tools).toEqual([]);
    expect(offersSkill('toString', { capabilities: [WILDCARD], isSuperadmin: true }, DEFAULTS)).toBe(false);
  });

  it('are the same skills in the chat and over MCP, for any caller and policy', () => {
    const callers = fc.record({ capabilities: fc.subarray([...CAPABILITIES, WILDCARD]), isSuperadmin: fc.boolean() });
    const policies = fc.dictionary(fc.constantFrom(...SKILL_NAMES), fc.constantFrom(...SKILL_MODES));
    fc.assert(
      fc.property(callers, policies, (caller, skills) => {
        const policy = { skills: { ...DEFAULTS.skills, ...skills } };
        expect(names(toolsFor(caller, policy))).toEqual(names(toolsForCaller(SPECS, caller, policy).tools));
      }),
      { numRuns: 200 },
    );
  });
});
