// The SkillExecutors map: one executor per skill of the catalog, over the CMS services.
import type { SkillExecutors } from '../approvals/skill-executors.js';
import { aiContentAssistExecutor } from './ai-content-assist.executor.js';
import { aiSuggestFieldExecutor } from './ai-suggest-field.executor.js';
import { createCollectionExecutor } from './create-collection.executor.js';
import { createFieldExecutor } from './create-field.executor.js';
import { createItemExecutor } from './create-item.executor.js';
import { deleteCollectionExecutor } from './delete-collection.executor.js';
import { deleteFieldExecutor } from './delete-field.executor.js';
import { deleteItemExecutor } from './delete-item.executor.js';
import { deleteUserExecutor } from './delete-user.executor.js';
import { listCollectionsExecutor } from './list-collections.executor.js';
import { listItemsExecutor } from './list-items.executor.js';
import { searchItemsExecutor } from './search-items.executor.js';
import type { SkillDependencies } from './skill-dependencies.js';
import { updateFieldExecutor } from './update-field.executor.js';
import { updateItemExecutor } from './update-item.executor.js';

/** Typed as SkillExecutors, so a skill added to the catalog without an executor does not compile. */
export function createSkillExecutors(dependencies: SkillDependencies): SkillExecutors {
  return {
    listCollections: listCollectionsExecutor(dependencies),
    createCollection: createCollectionExecutor(dependencies),
    deleteCollection: deleteCollectionExecutor(dependencies),
    createField: createFieldExecutor(dependencies),
    updateField: updateFieldExecutor(dependencies),
    deleteField: deleteFieldExecutor(dependencies),
    listItems: listItemsExecutor(dependencies),
    createItem: createItemExecutor(dependencies),
    updateItem: updateItemExecutor(dependencies),
    deleteItem: deleteItemExecutor(dependencies),
    deleteUser: deleteUserExecutor(dependencies),
    aiSuggestField: aiSuggestFieldExecutor(dependencies),
    aiContentAssist: aiContentAssistExecutor(dependencies),
    searchItems: searchItemsExecutor(dependencies),
  };
}
