// deleteItem: an item, into the trash; a re-run after a run that got as far as deleting it succeeds.
import { ForbiddenError } from '@lumibase/shared';
import { restorable } from './impact-words.js';
import { titleOf } from '../services/item-title.js';
import { itemNotFound } from './item-not-found.js';
import { itemTarget } from './item-target.js';
import { runOnce, tolerating } from './run-once.js';
import { itemRefusal } from './simulated-site.js';
import { writeContext } from './skill-dependencies.js';
import type { SkillModule } from './skill-module.js';

export const deleteItemSkill: SkillModule<'deleteItem'> = {
  execute: (dependencies) => async (args, context) =>
    runOnce({
      dependencies,
      context,
      skillName: 'deleteItem',
      perform: async (resumed) => {
        try {
          await tolerating(
            resumed,
            () => dependencies.items.remove(context.siteId, args.collection, args.id, writeContext(context)),
            (error) => error instanceof ForbiddenError,
          );
        } catch (error) {
          throw error instanceof ForbiddenError ? itemNotFound(args.collection, args.id) : error;
        }
        // Best effort: the deletion is done whether or not its undo can be named.
        const undo = await dependencies.revisions?.undoFor(context.siteId, context.operationId).catch(() => undefined);
        return { collection: args.collection, id: args.id, deleted: true, ...(undo ? { undo } : {}) };
      },
    }),
  inspect: async ({ collection, id }, context) => {
    const { target, item } = await itemTarget(context.site, collection, id);
    if (!item) return { target, impact: { summary: `The item ${id} does not exist in ${collection}` } };
    const title = titleOf(item.data);
    return {
      target,
      impact: {
        summary: `Deletes the item ${title ? `"${title}"` : item.id} from ${collection}`,
        items: [{ id: item.id, ...(title ? { title } : {}) }],
        ...restorable(context),
      },
    };
  },
  verify: async ({ collection, id }, _result, site) => {
    const record = await site.collection(collection);
    return record && (await site.item(record.id, id)) ? `the item ${id} is still in ${collection}` : undefined;
  },
  undo: ({ collection, id }) => ({ kind: 'restore-trash', trashKind: 'item', collection, itemId: id }),
  refuse: ({ collection, id }, site) => itemRefusal(site, collection, { id }),
  simulate: ({ collection, id }, site) => site.removeItem(collection, id),
  describeStep: ({ collection, id }, { inspected, createdBy }) => inspected ?? `Deletes the item ${id} of ${collection}${createdBy}`,
};
