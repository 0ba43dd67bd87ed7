// deleteCollection: the collection and its items; a re-run after a run that got as far as deleting succeeds.
import { NotFoundError } from '@lumibase/shared';
import { PREVIEW_LIMIT, plural, restorable } from './impact-words.js';
import { titleOf } from '../services/item-title.js';
import { runOnce, tolerating } from './run-once.js';
import { collectionTarget } from './schema-targets.js';
import { missingCollection } from './simulated-site.js';
import { writeContext } from './skill-dependencies.js';
import type { SkillModule } from './skill-module.js';

export const deleteCollectionSkill: SkillModule<'deleteCollection'> = {
  execute: (dependencies) => async (args, context) =>
    runOnce({
      dependencies,
      context,
      skillName: 'deleteCollection',
      perform: async (resumed) => {
        await tolerating(
          resumed,
          () => dependencies.collections.remove(context.siteId, args.name, writeContext(context)),
          (error) => error instanceof NotFoundError,
        );
        return { collection: args.name, deleted: true };
      },
    }),
  inspect: async ({ name }, context) => {
    const { record, target } = await collectionTarget(context.site, name);
    if (!record) return { target, impact: { summary: `The collection ${name} does not exist` } };
    const { records, total } = await context.site.items(record.id, { limit: PREVIEW_LIMIT, offset: 0 });
    return {
      target,
      impact: {
        summary: `Deletes the collection ${name} and its ${plural(total, 'item')}`,
        items: records.map((item) => ({ id: item.id, ...(titleOf(item.data) ? { title: titleOf(item.data) } : {}) })),
        ...restorable(context),
      },
    };
  },
  verify: async ({ name }, _result, site) => ((await site.collection(name)) ? `the collection ${name} is still there` : undefined),
  undo: ({ name }) => ({ kind: 'restore-trash', trashKind: 'collection', collection: name }),
  refuse: async ({ name }, site) => ((await site.collection(name)) ? undefined : missingCollection(name)),
  simulate: async ({ name }, site) => site.removeCollection(name),
};
