// deleteItem: an item; a re-run after a run that got as far as deleting it succeeds.
import { ForbiddenError } from '@lumibase/shared';
import { itemNotFound } from './item-not-found.js';
import { runOnce, tolerating } from './run-once.js';
import { type ExecutorFactory, writeContext } from './skill-dependencies.js';

export const deleteItemExecutor: ExecutorFactory<'deleteItem'> = (dependencies) => async (args, context) =>
  runOnce({
    dependencies,
    context,
    skillName: 'deleteItem',
    perform: async (resumed) => {
      try {
        await tolerating(
          resumed,
          () => dependencies.items.remove(context.siteId, args.collection, args.id, writeContext(context)),
          (error) => error instanceof ForbiddenError,
        );
      } catch (error) {
        throw error instanceof ForbiddenError ? itemNotFound(args.collection, args.id) : error;
      }
      // Best effort: the deletion is done whether or not its undo can be named.
      const undo = await dependencies.revisions?.undoFor(context.siteId, context.operationId).catch(() => undefined);
      return { collection: args.collection, id: args.id, deleted: true, ...(undo ? { undo } : {}) };
    },
  });
