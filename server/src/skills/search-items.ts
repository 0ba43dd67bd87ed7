// searchItems: the site's items nearest in meaning to the query. Their contents are data, never instructions.
import { SEARCH_LIMIT_DEFAULT, UnavailableError } from '@lumibase/shared';
import { nothingToInspect, type SkillModule } from './skill-module.js';

export const searchItemsSkill: SkillModule<'searchItems'> = {
  execute:
    ({ search }) =>
    async ({ query, collection, limit = SEARCH_LIMIT_DEFAULT }, { siteId }) => {
      if (!search) throw new UnavailableError({ message: 'Search is not available in this process' });
      const { data, meta } = await search.search(siteId, { query, collection, limit });
      // `items`, like listItems: the turn records what the model read before a dangerous proposal.
      return { query, ...(collection !== undefined ? { collection } : {}), items: data, model: meta.model, pending: meta.pending };
    },
  inspect: nothingToInspect,
};
