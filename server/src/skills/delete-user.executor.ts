// deleteUser: removes the user's membership in the current site (the account stays); a re-run succeeds.
import { ForbiddenError, NotFoundError } from '@lumibase/shared';
import { runOnce, tolerating } from './run-once.js';
import type { ExecutorFactory } from './skill-dependencies.js';

export const deleteUserExecutor: ExecutorFactory<'deleteUser'> = (dependencies) => async (args, context) =>
  runOnce({
    dependencies,
    context,
    skillName: 'deleteUser',
    perform: async (resumed) => {
      try {
        await tolerating(
          resumed,
          () => dependencies.members.remove(context.siteId, args.userId),
          (error) => error instanceof ForbiddenError,
        );
      } catch (error) {
        if (!(error instanceof ForbiddenError)) throw error;
        throw new NotFoundError({ message: `User "${args.userId}" is not a member of this site` });
      }
      return { userId: args.userId, removedFromSite: true };
    },
  });
