// createField: a field added to a collection; a re-run finding exactly this field already there succeeds.
import { runOnce } from './run-once.js';
import { type ExecutorFactory, writeContext } from './skill-dependencies.js';

export const createFieldExecutor: ExecutorFactory<'createField'> = (dependencies) => async (args, context) =>
  runOnce({
    dependencies,
    context,
    skillName: 'createField',
    // With an operation id the fields service answers "this very field is already there" as success.
    perform: async () => ({
      collection: args.collection,
      field: await dependencies.fields.add(context.siteId, args.collection, args.field, writeContext(context)),
    }),
  });
