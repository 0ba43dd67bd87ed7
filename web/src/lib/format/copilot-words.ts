// The Copilot in plain words: skills named as actions, capabilities as permissions, denials as one sentence with the
// fix, and the phrases the echo planner understands offered with the site's real collections.
import { FIELD_TYPES, findSkill, type SkillOutcome } from '@lumibase/shared';
import { inWords } from './approval-outcome.js';

type DeniedOutcome = Extract<SkillOutcome, { status: 'denied' }>;

/** "createField" → "Add a field" (the action on the skill's definition); a skill we do not know keeps its name. */
export function skillAction(skillName: string): string {
  return findSkill(skillName)?.action ?? skillName;
}

export const CAPABILITY_WORDS: Record<string, string> = {
  'schema:read': 'Can see the schema',
  'schema:write': 'Can change the schema',
  'content:read': 'Can read content',
  'content:write': 'Can write content',
  'users:write': 'Can manage members',
  'approvals:decide': 'Can decide approvals',
  '*': 'Can do everything (superadmin)',
};

/** "schema:write" → "Can change the schema"; the capability itself goes in a tooltip. */
export function capabilityWords(capability: string): string {
  return Object.hasOwn(CAPABILITY_WORDS, capability) ? (CAPABILITY_WORDS[capability] as string) : capability;
}

/** "schema:write" → "someone who can change the schema". */
function whoCan(capability: string): string {
  const words = capabilityWords(capability);
  return words.startsWith('Can ') ? `someone who can ${words.slice(4)}` : 'someone with more permissions';
}

/** A phrase that works, for the skill a denial was about (its definition's example), with the site's first collection. */
export function exampleFor(skillName: string, collection = 'posts'): string {
  return findSkill(skillName)?.example(collection) ?? 'list collections';
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
const sentence = (text: string) => (/[.!?…]$/.test(text) ? text : `${text}.`);

/** The value at a dotted path ("field.name") of the call's arguments. */
function valueAt(args: unknown, path: string): unknown {
  let value: unknown = args;
  for (const key of path.split('.').filter(Boolean)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** One human sentence saying why a call was not done and how to get it done. */
export function explainDenial(outcome: DeniedOutcome, collections: readonly string[] = []): string {
  // A model failure names no skill: its message says what failed.
  if (!outcome.skill) return sentence(inWords(outcome.message));
  const skill = outcome.skill.name;
  const action = lowerFirst(skillAction(skill));
  const example = exampleFor(skill, collections[0]);
  const details = outcome.details ?? [];
  switch (outcome.reason) {
    case 'missing_capabilities': {
      const missing = details.map((detail) => detail.message.replace(/^missing /, '')).filter(Boolean);
      const who = missing.length > 0 ? missing.map(whoCan).join(' and ') : 'more permissions';
      return `To ${action} you need ${who}: ask a site admin to do it, or to give you that permission.`;
    }
    case 'unknown_skill':
      return `The Copilot cannot do that; try a command such as “list collections”.`;
    case 'invalid_arguments': {
      const detail = details[0];
      const data = outcome.skill.arguments as Record<string, unknown> | undefined;
      if (detail && /(^|\.)type$/.test(detail.path)) return `Field type must be one of: ${FIELD_TYPES.join(', ')} — e.g. “${example}”.`;
      if (detail && detail.path.split('.')[0] === 'data' && typeof data?.data === 'string')
        return `That is bad JSON: the data must be an object in braces — e.g. “${example}”.`;
      const named = detail ? valueAt(data, detail.path) : undefined;
      if (
        detail &&
        /(^|\.)name$|collection$|field$/.test(detail.path) &&
        typeof named === 'string' &&
        named.length > 64 &&
        /^[a-z][a-z0-9_]*$/.test(named)
      )
        return `That name is too long: ${named.length} characters, and names are at most 64 — e.g. “${example}”.`;
      if (detail && /(^|\.)name$|collection$|field$/.test(detail.path))
        return `Names use lowercase letters, digits and _, starting with a letter — e.g. “${example}”.`;
      const what = detail ? `${detail.path ? `${detail.path.replace(/\./g, ' ')}: ` : ''}${detail.message}` : outcome.message;
      return `${sentence(inWords(what))} Try e.g. “${example}”.`;
    }
    default: {
      const reason = outcome.message.replace(new RegExp(`^${skill} failed: `), '');
      const hint = outcome.code === 'NOT_FOUND' ? ' Check the name with “list collections”.' : '';
      return `Could not ${action}: ${lowerFirst(sentence(inWords(reason)))}${hint}`;
    }
  }
}

/** The intro's chips: phrases that work with this site's collections (never a collection it does not have). */
export function suggestionChips(collections: readonly string[]): string[] {
  const first = collections[0];
  if (!first) return ['list collections', 'create collection articles'];
  return ['list collections', `list items in ${first}`, `add field summary to ${first} as text`];
}

/** Every phrase the echo planner understands, filled in with the site's collections (and their fields). */
export function phraseCandidates(collections: readonly { name: string; fields?: readonly { name: string }[] }[]): string[] {
  const phrases = ['list collections', 'create collection articles', 'search for launch'];
  for (const { name, fields = [] } of collections.slice(0, 8)) {
    const field = fields[0]?.name ?? 'title';
    phrases.push(
      `list items in ${name}`,
      `add field summary to ${name} as text`,
      `create item in ${name} with {"${field}": "Hello"}`,
      `search ${name} for launch`,
      `suggest field for ${name}: a short summary`,
      `delete field ${field} from ${name}`,
      `delete collection ${name}`,
    );
  }
  return phrases;
}

/** Up to `limit` phrases that continue what was typed (case-insensitive), once two characters are typed. */
export function completePhrase(draft: string, candidates: readonly string[], limit = 3): string[] {
  const typed = draft.trimStart().toLowerCase();
  if (typed.length < 2) return [];
  return candidates.filter((candidate) => candidate.toLowerCase().startsWith(typed) && candidate.toLowerCase() !== typed).slice(0, limit);
}

/**
 * What the Copilot's intro says the planner understands: the echo planner (no language model)
 * takes short commands; a language model understands plain sentences. Unknown before /auth/me answers.
 */
export function copilotIntro(provider: string | undefined): string {
  if (provider === undefined || provider === 'echo') return 'It takes short commands such as the ones below.';
  return 'It understands plain sentences; the ones below are examples.';
}
