// deleteField: a field and its values; a re-run after a run that got as far as deleting succeeds.
import { NotFoundError } from '@lumibase/shared';
import { PREVIEW_LIMIT, plural, restorable } from './impact-words.js';
import { runOnce, tolerating } from './run-once.js';
import { fieldTarget } from './schema-targets.js';
import { fieldRefusal } from './simulated-site.js';
import { writeContext } from './skill-dependencies.js';
import type { SkillModule } from './skill-module.js';

/** Items looked at for values of the field; the summary says "or more" past it. */
const SCANNED_ITEMS = 100;

export const deleteFieldSkill: SkillModule<'deleteField'> = {
  execute: (dependencies) => async (args, context) =>
    runOnce({
      dependencies,
      context,
      skillName: 'deleteField',
      perform: async (resumed) => {
        await tolerating(
          resumed,
          () => dependencies.fields.remove(context.siteId, args.collection, args.field, writeContext(context)),
          (error) => error instanceof NotFoundError,
        );
        return { collection: args.collection, field: args.field, deleted: true };
      },
    }),
  inspect: async ({ collection, field }, context) => {
    const { record, exists, target } = await fieldTarget(context.site, collection, field);
    if (!record) return { target, impact: { summary: `The collection ${collection} does not exist` } };
    if (!exists) return { target, impact: { summary: `The field ${field} does not exist in ${collection}` } };
    // The values that will go: items holding one, a sample of them.
    const { records } = await context.site.items(record.id, { limit: SCANNED_ITEMS, offset: 0 });
    const holding = records.filter((item) => item.data[field] !== undefined);
    return {
      target,
      impact: {
        summary: `Deletes the field ${field} of ${collection} and its values in ${plural(holding.length, 'item')}${records.length === SCANNED_ITEMS ? ' or more' : ''}`,
        values: holding.slice(0, PREVIEW_LIMIT).map((item) => item.data[field]),
        ...restorable(context),
      },
    };
  },
  verify: async ({ collection, field }, _result, site) =>
    (await site.collection(collection))?.fields.some((candidate) => candidate.name === field)
      ? `the field ${field} is still in ${collection}`
      : undefined,
  undo: ({ collection, field }) => ({ kind: 'restore-trash', trashKind: 'field', collection, field }),
  refuse: ({ collection, field }, site) => fieldRefusal(site, collection, field, true),
  simulate: ({ collection, field }, site) => site.removeField(collection, field),
};
