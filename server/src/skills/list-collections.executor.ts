// listCollections: the site's schema, every collection with its fields.
import type { ExecutorFactory } from './skill-dependencies.js';

export const listCollectionsExecutor: ExecutorFactory<'listCollections'> =
  ({ collections }) =>
  async (_args, { siteId }) => ({ collections: await collections.listAll(siteId) });
