// The one retry rule of an approved run (a one-step approval or a plan's step): a failure that another try may fix
// leaves the approval `executing` for the queue's next try while it has tries left; anything else is settled now.
import type { Failure } from './describe-failure.js';

/** Codes of failures worth another try (a dropped connection, a timeout); domain refusals (validation, permission, not found) are final. */
const TRANSIENT_CODES: ReadonlySet<string> = new Set(['INTERNAL', 'UNAVAILABLE']);

/** Thrown instead of settling: the job fails and the queue tries it again, the approval still `executing`. */
export class TransientExecutionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransientExecutionError';
  }
}

/**
 * Whether a run's failure goes back to the queue rather than being settled: it is transient (a failure without a
 * code is an internal one) and `settleTransient` is false (the queue has tries left). Unset settles: a caller that
 * is not a queue's job has no next try.
 */
export function retriesFailure(failure: Failure, { settleTransient = true }: { settleTransient?: boolean | undefined }): boolean {
  return settleTransient === false && TRANSIENT_CODES.has(failure.code ?? 'INTERNAL');
}
