// What the skill executors are built over: the CMS services and the Copilot's operation ledger.
import type { SkillName } from '@lumibase/shared';
import type { SkillExecutionContext, SkillExecutor } from './skill-executors.js';
import type { CollectionsService } from '../services/collections.service.js';
import type { FieldsService } from '../services/fields.service.js';
import type { ItemsService } from '../services/items.service.js';
import type { RevisionsService } from '../services/revisions.service.js';
import type { MembersService } from '../services/members.service.js';
import type { SiteAccessService } from '../services/site-access.service.js';
import type { WriteContext } from '../services/write-context.js';
import type { OperationRepository } from '../store/ai/operation.store.js';
import type { SearchService } from '../retrieval/search/search.service.js';
import type { Embedder } from '../retrieval/embeddings/embedder.js';
import type { JsonModel } from '../retrieval/rag/index.js';

export interface SkillDependencies {
  collections: Pick<CollectionsService, 'listAll' | 'get' | 'create' | 'remove'>;
  fields: Pick<FieldsService, 'add' | 'update' | 'remove'>;
  items: Pick<ItemsService, 'list' | 'get' | 'create' | 'update' | 'remove'>;
  members: Pick<MembersService, 'remove'>;
  /** The actor's standing in the site, for skills whose rules depend on it (deleteUser). */
  access: Pick<SiteAccessService, 'resolveUser'>;
  operations: { forSite(siteId: string): { operations: OperationRepository } };
  /** Finds the revision that undoes an item change (deleteItem's result carries it for the Copilot's Undo). */
  revisions?: Pick<RevisionsService, 'undoFor'>;
  /** Semantic search over the site's vectors (searchItems, and the retrieval of the RAG skills); the domain always gives it. */
  search?: Pick<SearchService, 'search' | 'nearest' | 'model'>;
  /** The site's embedder (aiSuggestField embeds the description and the fields it compares). */
  embedder?: Embedder;
  /** The language model the RAG skills ask for one JSON answer; absent under echo (they answer from retrieval alone). */
  jsonModel?: JsonModel | undefined;
  clock?: () => Date;
}

/** One executor file exports one of these: the executor of its skill, given the dependencies. */
export type ExecutorFactory<Name extends SkillName> = (dependencies: SkillDependencies) => SkillExecutor<Name>;

/** The write context the services take: on whose authority, and the id that makes a retry harmless. */
export function writeContext({ actor, operationId, firstRun, via, approvalId }: SkillExecutionContext): WriteContext {
  return { actor, operationId, ...(firstRun ? { firstRun } : {}), ...(via ? { via } : {}), ...(approvalId ? { approvalId } : {}) };
}
