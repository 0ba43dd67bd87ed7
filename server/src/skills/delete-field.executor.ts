// deleteField: a field and its values; a re-run after a run that got as far as deleting succeeds.
import { NotFoundError } from '@lumibase/shared';
import { runOnce, tolerating } from './run-once.js';
import { type ExecutorFactory, writeContext } from './skill-dependencies.js';

export const deleteFieldExecutor: ExecutorFactory<'deleteField'> = (dependencies) => async (args, context) =>
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
  });
