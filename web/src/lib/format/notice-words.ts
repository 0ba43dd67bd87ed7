// A copilot-notice in plain words for the Studio: who, what (never a skill's camelCase name), and what was read first.
import { type CopilotNotice, findSkill, type UncheckedArguments } from '@lumibase/shared';
import { describeReadBefore } from './read-before.js';

/** "Ada's Copilot changed item 6650… in posts" (the skill's own sentence, in the past). */
export function describeNotice(notice: Pick<CopilotNotice, 'skillName' | 'arguments' | 'actor'>): string {
  const skill = findSkill(notice.skillName);
  const sentence = skill?.describe((notice.arguments ?? {}) as UncheckedArguments);
  const what = sentence ? pastTense(sentence) : skill ? skill.action.toLowerCase() : 'made a change';
  return `${notice.actor.name || 'Someone'}’s Copilot ${what}`;
}

/** "It ran after reading 2 items of posts": content read first may have steered it. Undefined when nothing was read. */
export function describeNoticeCaution(notice: Pick<CopilotNotice, 'readBefore'>): string | undefined {
  const read = describeReadBefore(notice.readBefore);
  return read ? read.replace(/^Proposed after/, 'It ran after') : undefined;
}

function pastTense(sentence: string): string {
  const trimmed = sentence.replace(/\.$/, '');
  const [verb = '', ...rest] = trimmed.split(' ');
  const past: Record<string, string> = { Changes: 'changed', Creates: 'created', Adds: 'added', Deletes: 'deleted', Renames: 'renamed' };
  return [past[verb] ?? verb.toLowerCase(), ...rest].join(' ');
}
