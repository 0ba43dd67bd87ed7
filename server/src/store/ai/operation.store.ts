// ai_operations for one site: the ledger that makes a skill executor's second run a no-op.
import { isDuplicateKeyError } from '../duplicate-key.js';
import type { AiModels, OperationDocument } from './ai-models.js';
import { decodeJson, encodeJson } from '../json-codec.js';
import { SiteScopedStore } from '../site-scoped.js';

/**
 * What a run finds when it claims an operation: `new` (it is the first), `started` (an earlier run
 * began and never finished: it may or may not have had its effect), or `completed` with the result
 * the first run returned.
 */
export type OperationClaim = { state: 'new' } | { state: 'started' } | { state: 'completed'; result: unknown };

export interface OperationRepository {
  readonly siteId: string;
  claim(operation: { operationId: string; skillName: string; at: Date }): Promise<OperationClaim>;
  complete(operationId: string, result: unknown, at: Date): Promise<void>;
  /** Forgets a claim whose run failed cleanly, so that the next run starts afresh. */
  release(operationId: string): Promise<void>;
  /** Whether a run of this operation ever claimed it (and did not release it): it may have had its effect. */
  claimed(operationId: string): Promise<boolean>;
}

export class OperationStore extends SiteScopedStore implements OperationRepository {
  constructor(
    private readonly models: Pick<AiModels, 'operations'>,
    siteId: string,
  ) {
    super(siteId);
  }

  async claim({ operationId, skillName, at }: { operationId: string; skillName: string; at: Date }): Promise<OperationClaim> {
    // A claim released between our insert and our read is claimed again; a few tries always settle it.
    for (let attempt = 0; ; attempt += 1) {
      try {
        const claim = this.owned({ operationId, skillName, status: 'started', startedAt: at });
        await this.models.operations.insertMany([claim], { lean: true });
        return { state: 'new' };
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
      const existing = await this.models.operations.findOne(this.scoped({ operationId })).lean<OperationDocument>();
      if (existing?.status === 'completed') {
        return { state: 'completed', result: existing.resultJson == null ? undefined : decodeJson(existing.resultJson) };
      }
      if (existing || attempt >= 3) return { state: 'started' };
    }
  }

  async complete(operationId: string, result: unknown, at: Date): Promise<void> {
    await this.models.operations.updateOne(this.scoped({ operationId }), {
      $set: { status: 'completed', completedAt: at, ...(result === undefined ? {} : { resultJson: encodeJson(result) }) },
    });
  }

  async claimed(operationId: string): Promise<boolean> {
    return (await this.models.operations.countDocuments(this.scoped({ operationId }))) > 0;
  }

  async release(operationId: string): Promise<void> {
    await this.models.operations.deleteOne(this.scoped({ operationId, status: 'started' }));
  }
}
