// How the decider hands over an approval it moved to `executing` (QueuedApprovalExecutor in every process).
import type { Approval } from '@lumibase/shared';

export interface ApprovalExecutor {
  /**
   * Takes an approval this decision moved to `executing` and returns it as it then stands:
   * `approved`, `pending` with `lastError`, or still `executing` when the run outlasts the wait
   * (the route answers 202). Throws UnavailableError, after moving it back to `pending`, when the
   * run cannot even be started.
   */
  execute(approval: Approval): Promise<Approval>;
}
