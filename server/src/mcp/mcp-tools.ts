// The skills as MCP tools: the list a caller may use, and a call's outcome from the gate as an MCP tool result.
import {
  type CapabilityHolder,
  type CopilotPolicy,
  type SkillOutcome,
  SKILL_LIST,
  getSkillToolSpecs,
  isDangerous,
  writes,
} from '@lumibase/shared';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { offersSkill } from '../copilot/tools-for-caller.js';

const SPECS = new Map(getSkillToolSpecs().map((spec) => [spec.name, spec]));

/** The skills the caller's capabilities allow and the site's policy does not turn off (the Copilot's own filter). */
export function toolsFor(caller: CapabilityHolder, policy: Pick<CopilotPolicy, 'skills'>): Tool[] {
  return SKILL_LIST.filter((skill) => offersSkill(skill.name, caller, policy)).map((skill) => {
    const spec = SPECS.get(skill.name);
    if (!spec) throw new TypeError(`no tool spec for ${skill.name}`);
    return {
      name: skill.name,
      title: skill.action,
      description: spec.description,
      inputSchema: { ...spec.parameters, type: 'object' } as Tool['inputSchema'],
      annotations: {
        title: skill.action,
        readOnlyHint: !writes(skill),
        destructiveHint: isDangerous(skill),
      },
    };
  });
}

/** The gate's outcome as a tool result: executed → its data; pending → not an error, a human decides; denied → isError. */
export function toolResult(outcome: SkillOutcome): CallToolResult {
  switch (outcome.status) {
    case 'executed': {
      const structured = { status: 'executed', data: outcome.data ?? null, ...(outcome.undo ? { undo: outcome.undo } : {}) };
      return { structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(structured) }] };
    }
    case 'pending_approval': {
      const structured = { status: 'pending_approval', approvalId: outcome.approvalId };
      const text =
        `${outcome.skill.name} needs a human admin's approval before it runs: approval ${outcome.approvalId} is pending in the ` +
        `LumiBase Studio. Nothing has changed yet. Read lumibase://approvals/${outcome.approvalId} to see whether it was decided.`;
      return { structuredContent: structured, content: [{ type: 'text', text }] };
    }
    default: {
      const structured = {
        status: 'denied',
        reason: outcome.reason,
        message: outcome.message,
        ...(outcome.code ? { code: outcome.code } : {}),
        ...(outcome.details ? { details: outcome.details } : {}),
      };
      return { isError: true, structuredContent: structured, content: [{ type: 'text', text: outcome.message }] };
    }
  }
}
