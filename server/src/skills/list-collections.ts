// listCollections: the site's schema, every collection with its fields.
import { nothingToInspect, type SkillModule } from './skill-module.js';

export const listCollectionsSkill: SkillModule<'listCollections'> = {
  execute:
    ({ collections }) =>
    async (_args, { siteId }) => ({ collections: await collections.listAll(siteId) }),
  inspect: nothingToInspect,
};
