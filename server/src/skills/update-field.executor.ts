// updateField: a field's changes applied; applying them again (after a rename too) changes nothing more.
import { isDeepStrictEqual } from 'node:util';
import { type Field, NotFoundError } from '@lumibase/shared';
import { runOnce } from './run-once.js';
import { type ExecutorFactory, writeContext } from './skill-dependencies.js';

export const updateFieldExecutor: ExecutorFactory<'updateField'> = (dependencies) => async (args, context) =>
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
  });

function hasChanges(field: Field, changes: Partial<Field>): boolean {
  return Object.entries(changes).every(([key, value]) => isDeepStrictEqual(field[key as keyof Field], value));
}
