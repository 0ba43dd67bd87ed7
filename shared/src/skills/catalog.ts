// The Copilot's skill catalog: the 14 skills, looked up by name.
import type { z } from 'zod';
import { createItem, deleteItem, listItems, updateItem } from './content-skills.js';
import type { SkillDefinition } from './define-skill.js';
import { aiContentAssist, aiSuggestField } from './rag-skills.js';
import { searchItems } from './search-skills.js';
import { createCollection, createField, deleteCollection, deleteField, listCollections, updateField } from './schema-skills.js';
import { deleteUser } from './user-skills.js';

export const SKILLS = {
  listCollections,
  createCollection,
  deleteCollection,
  createField,
  updateField,
  deleteField,
  listItems,
  createItem,
  updateItem,
  deleteItem,
  deleteUser,
  aiSuggestField,
  aiContentAssist,
  searchItems,
} as const;

export type Skills = typeof SKILLS;
export type SkillName = keyof Skills;
export type Skill = Skills[SkillName];
/** The parsed arguments of a skill (what executors receive and approvals store). */
export type SkillArguments<Name extends SkillName> = z.output<Skills[Name]['parameters']>;

export const SKILL_NAMES = Object.keys(SKILLS) as SkillName[];
export const SKILL_LIST: readonly Skill[] = Object.values(SKILLS);

/** Own keys only: `toString`, `__proto__` and other inherited names are not skills. */
export function isSkillName(name: string): name is SkillName {
  return Object.hasOwn(SKILLS, name);
}

export function findSkill(name: string): SkillDefinition<SkillName> | undefined {
  return isSkillName(name) ? SKILLS[name] : undefined;
}
