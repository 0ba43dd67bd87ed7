// aiContentAssist: a value for one field that fits its type, drawn from the item itself (with itemId) and the most
// similar items of its collection. It writes nothing: saving is a createItem or updateItem call.
import { ForbiddenError, NotFoundError, UnavailableError } from '@lumibase/shared';
import { assistContent } from '../retrieval/rag/index.js';
import { itemNotFound } from './item-not-found.js';
import { nothingToInspect, type SkillModule } from './skill-module.js';

/** Similar items retrieved for a value. */
const SIMILAR_ITEMS = 8;

export const aiContentAssistSkill: SkillModule<'aiContentAssist'> = {
  execute:
    ({ collections, items, search, jsonModel }) =>
    async ({ collection, field, instruction, itemId }, { siteId }) => {
      const { fields } = await collections.get(siteId, collection);
      const target = fields.find((candidate) => candidate.name === field);
      if (!target) throw new NotFoundError({ message: `Field "${field}" not found in collection "${collection}"` });
      let item: { id: string; data: Record<string, unknown> } | undefined;
      if (itemId !== undefined) {
        try {
          const found = await items.get(siteId, collection, itemId);
          item = { id: found.id, data: found.data };
        } catch (error) {
          throw error instanceof ForbiddenError ? itemNotFound(collection, itemId) : error;
        }
      }
      if (!search) throw new UnavailableError({ message: 'Content assist is not available in this process' });
      // The instruction and the item's own text find its neighbours; the instruction alone when drafting.
      const ownText = item ? Object.values(item.data).filter((value) => typeof value === 'string') : [];
      const query = [instruction, ...ownText].join('\n').slice(0, 500);
      const { data: hits } = await search.search(siteId, { query, collection, limit: SIMILAR_ITEMS });
      const similar = hits.map((hit) => ({ collection: hit.collection, id: hit.id, data: hit.item.data, score: hit.score }));
      return assistContent({ collection, field: target, instruction, item, similar }, { model: jsonModel });
    },
  inspect: nothingToInspect,
};
