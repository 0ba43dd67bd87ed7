// The Copilot's stores, handed out per site so that no query can run without its siteId.
import type { CopilotContinuationJob, CopilotPolicy } from '@lumibase/shared';
import type { Connection } from 'mongoose';
import type { OutboxRelay } from '../outbox.js';
import { type AiModels, createAiModels, ensureAiIndexes } from './ai-models.js';
import { type ApprovalRepository, ApprovalStore } from './approval.store.js';
import { owedApprovalWork } from './owed-approval-work.js';
import { type AuditRepository, AuditStore } from './audit.store.js';
import { type ConversationRepository, ConversationStore } from './conversation.store.js';
import { type OperationRepository, OperationStore } from './operation.store.js';
import { LearnedUnderEpoch } from '../learned-under-epoch.js';
import { type PolicyCache, type PolicyRepository, PolicyStore } from './policy.store.js';
import type { PolicyVersions } from './policy-versions.js';
import { type NoticeModel, type NoticeRepository, NoticeStore, registerNoticeModel } from './notice.store.js';

export interface SiteAiStores {
  approvals: ApprovalRepository;
  audit: AuditRepository;
  conversations: ConversationRepository;
  operations: OperationRepository;
  policy: PolicyRepository;
  notices: NoticeRepository;
}

/** What the harness and services depend on; tests may substitute it, production uses AiStores. */
export interface AiStoreFactory {
  forSite(siteId: string): SiteAiStores;
}

export interface AiStoresOptions {
  /** Queues a settled approval's continuation (the continuation queue); unset, runs do not continue. */
  continueRun?: (job: CopilotContinuationJob) => Promise<void>;
  /**
   * The sites' policy versions (RedisPolicyVersions): given, policies are kept under their site's version and every
   * policy change sets a new one (policy.store.ts, PolicyCache); unset, every policy read goes to the database.
   */
  policyVersions?: PolicyVersions;
}

export class AiStores implements AiStoreFactory {
  readonly models: AiModels;
  readonly notices: NoticeModel;
  private readonly policyCache: PolicyCache | undefined;

  constructor(
    connection: Connection,
    private readonly relay: OutboxRelay,
    { continueRun, policyVersions }: AiStoresOptions = {},
  ) {
    this.policyCache = policyVersions ? { learned: new LearnedUnderEpoch<CopilotPolicy>(), versions: policyVersions } : undefined;
    this.models = createAiModels(connection);
    relay.register(this.models.approvals, owedApprovalWork(this.models, continueRun));
    this.notices = registerNoticeModel(connection);
    relay.register(this.notices);
  }

  async ensureIndexes(): Promise<void> {
    await ensureAiIndexes(this.models);
    await this.notices.createIndexes();
  }

  /** The site's approvals as the mongoose store (the trash purge clears purged values from them). */
  approvalStore(siteId: string): ApprovalStore {
    return new ApprovalStore(this.models, siteId, this.relay);
  }

  forSite(siteId: string): SiteAiStores {
    return {
      approvals: new ApprovalStore(this.models, siteId, this.relay),
      audit: new AuditStore(this.models, siteId),
      conversations: new ConversationStore(this.models, siteId),
      operations: new OperationStore(this.models, siteId),
      policy: new PolicyStore(this.models, siteId, this.policyCache),
      notices: new NoticeStore(this.notices, siteId, this.relay),
    };
  }
}
