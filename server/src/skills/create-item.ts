// createItem: a new item; the operation id is stored on it, so a re-run returns it instead of a second one.
import { runOnce } from './run-once.js';
import { writeContext } from './skill-dependencies.js';
import { nothingToInspect, type SkillModule } from './skill-module.js';

export const createItemSkill: SkillModule<'createItem'> = {
  execute: (dependencies) => async (args, context) =>
    runOnce({
      dependencies,
      context,
      skillName: 'createItem',
      perform: () => dependencies.items.create(context.siteId, args.collection, args.data, writeContext(context)),
    }),
  inspect: nothingToInspect,
  verify: async ({ collection }, result, site) => {
    const id = (result as { id?: unknown } | undefined)?.id;
    const record = await site.collection(collection);
    return typeof id === 'string' && record && (await site.item(record.id, id)) ? undefined : `the new item is not in ${collection}`;
  },
  undo: ({ collection }, result) => {
    const id = (result as { id?: unknown } | undefined)?.id;
    return typeof id === 'string' ? { kind: 'discard-item', collection, id } : undefined;
  },
};
