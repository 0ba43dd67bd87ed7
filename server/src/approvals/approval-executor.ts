// How an approved approval gets executed. Inline here; the next issue adds a BullMQ-backed one
// (enqueue `<approvalId>-<attempt>`, wait up to DECIDE_WAIT_MS) behind the same interface.
import type { Approval } from '@lumibase/shared';
import type { HarnessStores } from '../harness/ai-secure-harness.js';
import { runApproval } from './run-approval.js';
import type { SkillExecutors } from '../harness/skill-executors.js';

export interface ApprovalExecutor {
  /**
   * Takes an approval this decision moved to `executing` and returns it as it then stands:
   * `approved`, `pending` with `lastError`, or still `executing` when the run outlasts the wait
   * (the route answers 202). Throws UnavailableError, after moving it back to `pending`, when the
   * run cannot even be started.
   */
  execute(approval: Approval): Promise<Approval>;
}

export interface InlineApprovalExecutorOptions {
  stores: HarnessStores;
  executors: SkillExecutors;
  clock?: () => Date;
  reportError?: (error: unknown, context: { skillName: string; siteId: string }) => void;
  /**
   * How long `execute` waits for the run (DECIDE_WAIT_MS). Past it, it answers with the approval
   * still `executing` and the run settles it in the background. Unset: wait for the run.
   */
  waitMs?: number;
}

export class InlineApprovalExecutor implements ApprovalExecutor {
  constructor(private readonly options: InlineApprovalExecutorOptions) {}

  async execute(approval: Approval): Promise<Approval> {
    const { stores, executors, clock, reportError, waitMs } = this.options;
    const { approvals, audit } = stores.forSite(approval.siteId);
    const run = runApproval({
      approval,
      approvals,
      audit,
      executors,
      ...(clock ? { clock } : {}),
      ...(reportError ? { reportError } : {}),
    });
    if (waitMs === undefined) return run;

    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<'waited'>((resolve) => {
      timer = setTimeout(() => resolve('waited'), waitMs);
    });
    try {
      const first = await Promise.race([run, waited]);
      if (first !== 'waited') return first;
    } finally {
      clearTimeout(timer);
    }
    // Still running: the caller gets the approval as it stands (executing → 202); the run goes on.
    run.catch((error: unknown) => reportError?.(error, { skillName: approval.skillName, siteId: approval.siteId }));
    return (await approvals.get(approval.id)) ?? approval;
  }
}
