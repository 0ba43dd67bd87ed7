// What a model is given (API.md, "AI Copilot"): only the tools the caller's capabilities allow and
// the site's policy does not turn off, so it never proposes a call that can only be denied.
import { type CapabilityHolder, type CopilotPolicy, findSkill, hasCapabilities, type ToolSpec } from '@lumibase/shared';

export interface CallerTools {
  tools: ToolSpec[];
  /** Skills the site's policy turns off, named in the site brief so the model can say why it cannot. */
  turnedOff: string[];
}

export function toolsForCaller(tools: readonly ToolSpec[], caller: CapabilityHolder, policy: Pick<CopilotPolicy, 'skills'>): CallerTools {
  const turnedOff = tools.map((tool) => tool.name).filter((name) => policy.skills[name] === 'off');
  const allowed = tools.filter((tool) => {
    const skill = findSkill(tool.name);
    return skill !== undefined && policy.skills[tool.name] !== 'off' && hasCapabilities(caller, skill.requiredCapabilities);
  });
  return { tools: allowed, turnedOff };
}
