// The approvals of a site as admins see them: the list with its event seq, one approval, editing and deciding.
import type { Approval, ApprovalStatus } from '@lumibase/shared';
import type { ApprovalDecider, DecideApprovalInput } from '../approvals/decide-approval.js';
import type { ApprovalEditor, EditApprovalInput } from '../approvals/edit-approval.js';
import type { AiStoreFactory } from '../store/ai/ai-stores.js';
import { recordNotInSite } from '../store/record-not-in-site.js';

/** The site's current event seq (its event log's latest). */
export type CurrentSeq = (siteId: string) => Promise<number>;

export interface ApprovalsServiceOptions {
  stores: Pick<AiStoreFactory, 'forSite'>;
  decider: Pick<ApprovalDecider, 'decideApproval'>;
  editor: Pick<ApprovalEditor, 'editApproval'>;
  currentSeq: CurrentSeq;
}

export interface ApprovalList {
  approvals: Approval[];
  /** All approvals of the site in that status, beyond the 100 listed too. */
  total: number;
  seq: number;
}

export class ApprovalsService {
  constructor(private readonly options: ApprovalsServiceOptions) {}

  /** At most 100, newest first. */
  async list(siteId: string, status: ApprovalStatus): Promise<ApprovalList> {
    const { approvals } = this.options.stores.forSite(siteId);
    // The seq is read first: a change that lands during the read is then replayed to the client's
    // socket (applied twice, harmlessly) rather than missed.
    const seq = await this.options.currentSeq(siteId);
    const { approvals: listed, total } = await approvals.listWithTotal({ status });
    return { approvals: listed, total, seq };
  }

  /** The not-in-site ForbiddenError for another site's approval, an unknown or a malformed id. */
  async get(siteId: string, id: string): Promise<Approval> {
    const approval = await this.options.stores.forSite(siteId).approvals.get(id);
    if (!approval) throw recordNotInSite();
    return approval;
  }

  /** See ApprovalEditor.editApproval: a new revision, nothing runs. */
  edit(input: EditApprovalInput): Promise<Approval> {
    return this.options.editor.editApproval(input);
  }

  /** See ApprovalDecider.decideApproval: Forbidden, Conflict (not pending), Unavailable (executor). */
  decide(input: DecideApprovalInput): Promise<Approval> {
    return this.options.decider.decideApproval(input);
  }
}
