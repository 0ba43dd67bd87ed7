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
};
