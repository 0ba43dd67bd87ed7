// updateItem: the given fields merged into an item; merging the same fields again changes nothing more.
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
};
