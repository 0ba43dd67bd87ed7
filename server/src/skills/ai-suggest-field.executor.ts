// aiSuggestField: not available until embeddings exist; it still checks the collection, so mistakes show.
import { notAvailableYet } from './not-available-yet.js';
import type { ExecutorFactory } from './skill-dependencies.js';

export const aiSuggestFieldExecutor: ExecutorFactory<'aiSuggestField'> =
  ({ collections }) =>
  async ({ collection }, { siteId }) => {
    await collections.get(siteId, collection);
    return notAvailableYet('aiSuggestField', 'suggesting a field from similar content');
  };
