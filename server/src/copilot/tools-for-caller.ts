// What a model is given (docs/API.md, "AI Copilot"), in the chat and over MCP alike: only the tools the caller's
// capabilities allow and the site's policy does not turn off, so it never proposes a call that can only be denied.
import { type CapabilityHolder, type CopilotPolicy, findSkill, hasCapabilities, type ToolSpec } from '@lumibase/shared';

export interface CallerTools {
  tools: ToolSpec[];
  /** Skills the site's policy turns off, named in the site brief so the model can say why it cannot. */
  turnedOff: string[];
}

/** The one tool filter: a known skill, not turned off by the site's policy, whose every capability the caller holds. */
export function offersSkill(name: string, caller: CapabilityHolder, policy: Pick<CopilotPolicy, 'skills'>): boolean {
  const skill = findSkill(name);
  return skill !== undefined && policy.skills[name] !== 'off' && hasCapabilities(caller, skill.requiredCapabilities);
}

export function toolsForCaller(tools: readonly ToolSpec[], caller: CapabilityHolder, policy: Pick<CopilotPolicy, 'skills'>): CallerTools {
  const turnedOff = tools.map((tool) => tool.name).filter((name) => policy.skills[name] === 'off');
  return { tools: tools.filter((tool) => offersSkill(tool.name, caller, policy)), turnedOff };
}
