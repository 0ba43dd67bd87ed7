// updateItem: the given fields merged into an item; merging the same fields again changes nothing more.
import { isDeepStrictEqual } from 'node:util';
import { ForbiddenError } from '@lumibase/shared';
import { itemNotFound } from './item-not-found.js';
import { runOnce } from './run-once.js';
import { writeContext } from './skill-dependencies.js';
import { titleOf } from '../services/item-title.js';
import { itemTarget } from './item-target.js';
import { itemRefusal } from './simulated-site.js';
import type { SkillModule } from './skill-module.js';

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
  // Gated when the site's policy asks (or in a plan): the approval is bound to the item as it was when asked.
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
  refuse: ({ collection, id, data }, site) => itemRefusal(site, collection, { id, data: { values: data, mode: 'patch' } }),
  simulate: ({ collection, id, data }, site) => site.updateItem(collection, id, data),
  describeStep: ({ collection, id }, { inspected, createdBy }) => inspected ?? `Updates the item ${id} of ${collection}${createdBy}`,
};
