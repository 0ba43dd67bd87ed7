// The idempotency of every writing skill: a ledger entry per operation id, claimed before the write.
import { DomainError, type SkillName } from '@lumibase/shared';
import type { SkillExecutionContext } from './skill-executors.js';
import type { SkillDependencies } from './skill-dependencies.js';

export interface RunOnceOptions<T> {
  dependencies: Pick<SkillDependencies, 'operations' | 'clock'>;
  context: SkillExecutionContext;
  skillName: SkillName;
  /**
   * Performs the write. `resumed`: an earlier run of this operation started and never recorded its
   * end (a crashed worker, a re-delivered job, a run still going), so its effect may already be
   * there and "already done" must count as success — a delete that finds nothing to delete.
   */
  perform: (resumed: boolean) => Promise<T>;
}

/**
 * BullMQ delivers at least once: a second run of an operation that completed returns the first
 * run's result without touching anything. A run that was refused (a DomainError: the services
 * refuse before they write) forgets its claim, so retrying an approval after fixing the cause is a
 * fresh attempt; any other failure may have left part of the effect, so the claim stays.
 */
export async function runOnce<T>({ dependencies, context, skillName, perform }: RunOnceOptions<T>): Promise<T> {
  const now = dependencies.clock ?? (() => new Date());
  const ledger = dependencies.operations.forSite(context.siteId).operations;
  const claim = await ledger.claim({ operationId: context.operationId, skillName, at: now() });
  if (claim.state === 'completed') return claim.result as T;
  const resumed = claim.state === 'started';
  let result: T;
  try {
    result = await perform(resumed);
  } catch (error) {
    if (error instanceof DomainError && !resumed) await ledger.release(context.operationId);
    throw error;
  }
  const completed = ledger.complete(context.operationId, result, now());
  // Until it lands a re-run finds the claim `started` and runs resumed, which is as safe as any crash after the write.
  if (context.deferred) {
    context.deferred.push(
      completed.then(
        () => ({ status: 'fulfilled', value: undefined }),
        (reason: unknown) => ({ status: 'rejected', reason }),
      ),
    );
  } else await completed;
  return result;
}

/** Runs `write`; when resumed, an error `alreadyDone` recognises counts as the earlier run's success. */
export async function tolerating(resumed: boolean, write: () => Promise<void>, alreadyDone: (error: unknown) => boolean): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (!(resumed && alreadyDone(error))) throw error;
  }
}
