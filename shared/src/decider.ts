// Who may decide an approval: the rule the server enforces and the Studio's buttons show.
import { type CapabilityHolder, hasCapabilities } from './capabilities.js';
import { findSkill } from './skills/catalog.js';

/** Deciding needs `approvals:decide` plus every capability the approval's skill requires. */
export function deciderCapabilities(skillName: string): string[] {
  return ['approvals:decide', ...(findSkill(skillName)?.requiredCapabilities ?? [])];
}

export function canDecideApproval(holder: CapabilityHolder, skillName: string): boolean {
  return hasCapabilities(holder, deciderCapabilities(skillName));
}
