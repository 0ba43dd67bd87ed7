// updateItem: the given fields merged into an item; merging the same fields again changes nothing more.
import { isDeepStrictEqual } from 'node:util';
import { ForbiddenError } from '@lumibase/shared';
import { itemNotFound } from './item-not-found.js';
import { runOnce } from './run-once.js';
import { writeContext } from './skill-dependencies.js';
import { nothingToInspect, type SkillModule } from './skill-module.js';

export const updateItemSkill: SkillModule<'updateItem'> = {
  execute: (dependencies) => async (args, context) =>
    runOnce({
      dependencies,
      context,
      skillName: 'updateItem',
      perform: async () => {
        try {
          return await dependencies.items.update(context.siteId, args.collection, args.id, args.data, writeContext(context));
        } catch (error) {
          throw error instanceof ForbiddenError ? itemNotFound(args.collection, args.id) : error;
        }
      },
    }),
  inspect: nothingToInspect,
  // The values the update wrote (as the service stored them) are the item's; a value set to null is gone.
  verify: async ({ collection, id, data }, result, site) => {
    const record = await site.collection(collection);
    const item = record ? await site.item(record.id, id) : null;
    if (!item) return `the item ${id} is not in ${collection}`;
    const written = (result as { data?: Record<string, unknown> } | undefined)?.data ?? {};
    const differs = Object.keys(data).find((key) =>
      data[key] === null ? item.data[key] !== undefined : !isDeepStrictEqual(item.data[key], written[key]),
    );
    return differs === undefined ? undefined : `the item ${id} does not hold the updated ${differs}`;
  },
  undo: ({ collection, id }) => ({ kind: 'restore-revision', collection, id }),
};
