// deleteCollection: the collection and its items; a re-run after a run that got as far as deleting succeeds.
import { NotFoundError } from '@lumibase/shared';
import { runOnce, tolerating } from './run-once.js';
import { type ExecutorFactory, writeContext } from './skill-dependencies.js';

export const deleteCollectionExecutor: ExecutorFactory<'deleteCollection'> = (dependencies) => async (args, context) =>
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
  });
