// A skill call in plain words for the person deciding on it ("Deletes the collection posts and all of its items").
// Each sentence lives on the skill's definition in shared/; arguments are whatever the model produced, so a sentence
// is used only when the fields it names are strings.
import { findSkill } from '@lumibase/shared';

export function describeSkillCall(skillName: string, args: Record<string, unknown>): string | undefined {
  return findSkill(skillName)?.describe(args) || undefined;
}

/** The value an approver must type before approving this call (a collection's name to delete it), if any. */
export function nameToConfirm(skillName: string, args: Record<string, unknown>): string | undefined {
  const argument = findSkill(skillName)?.confirmByName;
  const value = argument ? args[argument] : undefined;
  return typeof value === 'string' ? value : undefined;
}
