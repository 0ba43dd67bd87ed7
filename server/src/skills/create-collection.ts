// createCollection: a new collection; a re-run of the same operation gets the collection it created.
import type { Field } from '@lumibase/shared';
import { plural } from './impact-words.js';
import { runOnce } from './run-once.js';
import { collectionTarget } from './schema-targets.js';
import { writeContext } from './skill-dependencies.js';
import type { SkillModule } from './skill-module.js';

export const createCollectionSkill: SkillModule<'createCollection'> = {
  execute: (dependencies) => async (args, context) =>
    runOnce({
      dependencies,
      context,
      skillName: 'createCollection',
      // The collection store remembers the operation that created a collection: no 409 on a re-run.
      perform: () => dependencies.collections.create(context.siteId, args, writeContext(context)),
    }),
  inspect: async ({ name, fields }, { site }) => {
    const { target } = await collectionTarget(site, name);
    return { target, impact: { summary: `Creates the collection ${name} with ${plural(fields?.length ?? 0, 'field')}` } };
  },
  verify: async ({ name }, _result, site) => ((await site.collection(name)) ? undefined : `the collection ${name} is not there`),
  undo: ({ name }) => ({ kind: 'discard-collection', name }),
  refuse: async ({ name }, site) => ((await site.collection(name)) ? `the collection ${name} already exists` : undefined),
  simulate: async ({ name, fields = [] }, site, step) => site.addCollection(name, fields as Field[], step),
  creates: ({ name }) => ({ collection: name }),
};
