// deleteUser: removes the user's membership in the current site (the account stays); a re-run succeeds.
import { type ApprovalTarget, NotFoundError } from '@lumibase/shared';
import { isRecordNotInSite } from '../store/record-not-in-site.js';
import { runOnce, tolerating } from './run-once.js';
import type { SkillModule } from './skill-module.js';

export const deleteUserSkill: SkillModule<'deleteUser'> = {
  execute: (dependencies) => async (args, context) =>
    runOnce({
      dependencies,
      context,
      skillName: 'deleteUser',
      perform: async (resumed) => {
        // The members rule applies to whoever the skill runs for: they may not remove someone holding more than they do.
        const { user, capabilities } = await dependencies.access.resolveUser(context.actor.id, context.siteId);
        try {
          await tolerating(
            resumed,
            () => dependencies.members.remove(context.siteId, args.userId, { user, capabilities }),
            isRecordNotInSite,
          );
        } catch (error) {
          if (!isRecordNotInSite(error)) throw error;
          throw new NotFoundError({ message: `User "${args.userId}" is not a member of this site` });
        }
        return { userId: args.userId, removedFromSite: true };
      },
    }),
  inspect: async ({ userId }, { site }) => {
    const membership = await site.member(userId);
    const target: ApprovalTarget = { kind: 'user', ...(membership ? { id: userId } : {}) };
    if (!membership) return { target, impact: { summary: `The user ${userId} is not a member of this site` } };
    const user = await site.user(userId);
    return { target, impact: { summary: `Removes ${user?.name ?? userId} (${membership.role}) from this site` } };
  },
};
