// aiSuggestField: a field the collection lacks, from the fields nearest the description (the site's and a catalog's).
// It suggests; it creates nothing.
import { UnavailableError } from '@lumibase/shared';
import { suggestField } from '../retrieval/rag/index.js';
import { nothingToInspect, type SkillModule } from './skill-module.js';

export const aiSuggestFieldSkill: SkillModule<'aiSuggestField'> = {
  execute:
    ({ collections, embedder, jsonModel }) =>
    async ({ collection, description }, { siteId }) => {
      const target = await collections.get(siteId, collection);
      if (!embedder) throw new UnavailableError({ message: 'Suggestions are not available in this process' });
      const siteFields = (await collections.listAll(siteId)).flatMap((other) =>
        other.fields.map((field) => ({ collection: other.name, field })),
      );
      return suggestField({ collection: target, description, siteFields }, { embedder, model: jsonModel });
    },
  inspect: nothingToInspect,
};
