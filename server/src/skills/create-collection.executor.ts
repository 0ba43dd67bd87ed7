// createCollection: a new collection; a re-run of the same operation gets the collection it created.
import { runOnce } from './run-once.js';
import { type ExecutorFactory, writeContext } from './skill-dependencies.js';

export const createCollectionExecutor: ExecutorFactory<'createCollection'> = (dependencies) => async (args, context) =>
  runOnce({
    dependencies,
    context,
    skillName: 'createCollection',
    // The collection store remembers the operation that created a collection: no 409 on a re-run.
    perform: () => dependencies.collections.create(context.siteId, args, writeContext(context)),
  });
