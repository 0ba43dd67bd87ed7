// updateField: a field's changes applied; applying them again (after a rename too) changes nothing more.
import { isDeepStrictEqual } from 'node:util';
import { type Field, NotFoundError } from '@lumibase/shared';
import { runOnce } from './run-once.js';
import { fieldTarget } from './schema-targets.js';
import { fieldRefusal } from './simulated-site.js';
import { writeContext } from './skill-dependencies.js';
import type { SkillModule } from './skill-module.js';

export const updateFieldSkill: SkillModule<'updateField'> = {
  execute: (dependencies) => async (args, context) =>
    runOnce({
      dependencies,
      context,
      skillName: 'updateField',
      perform: async (resumed) => {
        const { siteId } = context;
        try {
          return {
            collection: args.collection,
            field: await dependencies.fields.update(siteId, args.collection, args.field, args.changes, writeContext(context)),
          };
        } catch (error) {
          // A rename that an earlier run of this operation already made: the old name is gone.
          if (!(resumed && error instanceof NotFoundError)) throw error;
          const { fields } = await dependencies.collections.get(siteId, args.collection);
          const target = fields.find((field) => field.name === (args.changes.name ?? args.field));
          if (!target || !hasChanges(target, args.changes)) throw error;
          return { collection: args.collection, field: target };
        }
      },
    }),
  inspect: async ({ collection, field }, { site }) => {
    const { record, target } = await fieldTarget(site, collection, field);
    if (!record) return { target, impact: { summary: `The collection ${collection} does not exist` } };
    return { target, impact: { summary: `Changes the field ${field} of ${collection}` } };
  },
  verify: async ({ collection, field, changes }, _result, site) => {
    const current = (await site.collection(collection))?.fields.find((candidate) => candidate.name === (changes.name ?? field));
    return current && hasChanges(current as Field, changes)
      ? undefined
      : `the field ${changes.name ?? field} of ${collection} does not show the changes`;
  },
  refuse: ({ collection, field }, site) => fieldRefusal(site, collection, field, true),
  simulate: ({ collection, field, changes }, site) => site.changeField(collection, field, changes as Partial<Field>),
  // No undo: a field change keeps no revision and goes to no trash (what it was is not kept), so a plan holds it only
  // as its last step, where nothing after it can fail and make it need undoing (dry-run.ts).
};

function hasChanges(field: Field, changes: Partial<Field>): boolean {
  return Object.entries(changes).every(([key, value]) => isDeepStrictEqual(field[key as keyof Field], value));
}
