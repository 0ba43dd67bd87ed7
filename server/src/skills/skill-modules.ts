// Every skill's module, by name. Typed over the catalog's names: a skill without a module does not compile.
import { isSkillName, type SkillName } from '@lumibase/shared';
import { aiContentAssistSkill } from './ai-content-assist.js';
import { aiSuggestFieldSkill } from './ai-suggest-field.js';
import { createCollectionSkill } from './create-collection.js';
import { createFieldSkill } from './create-field.js';
import { createItemSkill } from './create-item.js';
import { deleteCollectionSkill } from './delete-collection.js';
import { deleteFieldSkill } from './delete-field.js';
import { deleteItemSkill } from './delete-item.js';
import { deleteUserSkill } from './delete-user.js';
import { listCollectionsSkill } from './list-collections.js';
import { listItemsSkill } from './list-items.js';
import { searchItemsSkill } from './search-items.js';
import type { SkillModule } from './skill-module.js';
import { updateFieldSkill } from './update-field.js';
import { updateItemSkill } from './update-item.js';

export const SKILL_MODULES: { readonly [Name in SkillName]: SkillModule<Name> } = {
  listCollections: listCollectionsSkill,
  createCollection: createCollectionSkill,
  deleteCollection: deleteCollectionSkill,
  createField: createFieldSkill,
  updateField: updateFieldSkill,
  deleteField: deleteFieldSkill,
  listItems: listItemsSkill,
  createItem: createItemSkill,
  updateItem: updateItemSkill,
  deleteItem: deleteItemSkill,
  deleteUser: deleteUserSkill,
  aiSuggestField: aiSuggestFieldSkill,
  aiContentAssist: aiContentAssistSkill,
  searchItems: searchItemsSkill,
};

/** The collection a call creates (its module's `creates`), if it creates one: a later step of its plan may be bound to it by name. */
export function createdCollection(skillName: string, args: Record<string, unknown>): string | undefined {
  return isSkillName(skillName) ? SKILL_MODULES[skillName].creates?.(args as never)?.collection : undefined;
}
