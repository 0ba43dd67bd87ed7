// updateItem: the given fields merged into an item; merging the same fields again changes nothing more.
import { ForbiddenError } from '@lumibase/shared';
import { itemNotFound } from './item-not-found.js';
import { runOnce } from './run-once.js';
import { writeContext } from './skill-dependencies.js';
import type { SkillModule } from './skill-module.js';
import { titleOf } from './impact-words.js';
import { itemTarget } from './item-target.js';

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
  // Gated only when the site's policy asks (or in a plan): the approval is bound to the item as it was when asked.
  inspect: async ({ collection, id, data }, context) => {
    const { target, item } = await itemTarget(context.site, collection, id);
    if (!item) return { target, impact: { summary: `The item ${id} does not exist in ${collection}` } };
    const title = titleOf(item.data);
    const fields = Object.keys(data);
    return {
      target,
      impact: {
        summary: `Changes ${fields.length === 1 ? 'the field' : 'the fields'} ${fields.join(', ')} of the item ${title ? `"${title}"` : item.id} in ${collection}`,
        items: [{ id: item.id, ...(title ? { title } : {}) }],
      },
    };
  },
};
