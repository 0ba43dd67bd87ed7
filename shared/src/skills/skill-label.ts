// A skill as people read it in the server's messages: its action ("Delete a collection"), never its internal name.
import { findSkill } from './catalog.js';

/** What a plan of several steps is called where a skill's label would stand (its skillName is "plan"). */
const PLAN_LABEL = 'A plan of several changes';

/** "Delete a collection" for deleteCollection; an unknown name keeps a neutral word, never its camelCase name. */
export function skillLabel(skillName: string): string {
  if (skillName === 'plan') return PLAN_LABEL;
  return findSkill(skillName)?.action ?? 'A Copilot request';
}

/** The label quoted, to stand in a sentence: “Delete a collection” is turned off for this site. */
export function quotedSkill(skillName: string): string {
  return `“${skillLabel(skillName)}”`;
}
