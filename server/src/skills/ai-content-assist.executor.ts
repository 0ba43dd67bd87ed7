// aiContentAssist: not available until embeddings exist; it still checks the field and item it was asked about.
import { ForbiddenError, NotFoundError } from '@lumibase/shared';
import { itemNotFound } from './item-not-found.js';
import { notAvailableYet } from './not-available-yet.js';
import type { ExecutorFactory } from './skill-dependencies.js';

export const aiContentAssistExecutor: ExecutorFactory<'aiContentAssist'> =
  ({ collections, items }) =>
  async ({ collection, field, itemId }, { siteId }) => {
    const { fields } = await collections.get(siteId, collection);
    if (!fields.some((candidate) => candidate.name === field)) {
      throw new NotFoundError({ message: `Field "${field}" not found in collection "${collection}"` });
    }
    if (itemId !== undefined) {
      try {
        await items.get(siteId, collection, itemId);
      } catch (error) {
        throw error instanceof ForbiddenError ? itemNotFound(collection, itemId) : error;
      }
    }
    return notAvailableYet('aiContentAssist', 'drafting content from similar items');
  };
