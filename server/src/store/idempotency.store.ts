// Idempotency-Key records: claimed before a request runs, completed with its first response.
import { randomUUID } from 'node:crypto';
import { isDuplicateKeyError } from './duplicate-key.js';
import type { IdempotencyRecordModel } from './models/idempotency-record.model.js';

export interface IdempotencyScope {
  userId: string;
  /** The site the request acts in, as resolved; '' outside a site. */
  scope: string;
  key: string;
}

export interface StoredResponse {
  status: number;
  /** JSON text as first sent; undefined for an empty body (204). */
  body: string | undefined;
}

/**
 * What a request finds when it claims its key: `new` (it runs), `completed` (replay the stored
 * response), or `started` (another run holds it: still going, or crashed before it recorded its
 * response). Both carry the first request's fingerprint.
 */
export type IdempotencyClaim =
  | { state: 'new'; operationId: string }
  | { state: 'completed'; fingerprint: string; response: StoredResponse }
  | { state: 'started'; fingerprint: string; operationId: string; owner: string | undefined; startedAt: Date; attempt: number };

interface StoredRecord {
  fingerprint: string;
  operationId: string;
  status: 'started' | 'completed';
  owner?: string;
  startedAt: Date;
  attempt: number;
  responseStatus?: number;
  responseBody?: string;
  expiresAt: Date;
}

export class IdempotencyStore {
  constructor(
    private readonly model: IdempotencyRecordModel,
    private readonly retentionMs: number,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async claim(id: IdempotencyScope, { fingerprint, owner }: { fingerprint: string; owner: string }): Promise<IdempotencyClaim> {
    for (let attempt = 0; ; attempt++) {
      const now = this.clock();
      // New per record, not derived from the key: a key used again after its retention is a new operation.
      const operationId = `idem:${randomUUID()}`;
      try {
        await this.model.insertMany(
          [
            {
              ...id,
              fingerprint,
              operationId,
              owner,
              status: 'started',
              startedAt: now,
              attempt: 0,
              expiresAt: new Date(now.getTime() + this.retentionMs),
            },
          ],
          { lean: true },
        );
        return { state: 'new', operationId };
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
      const existing = await this.model.findOne(id).lean<StoredRecord>();
      if (existing && existing.expiresAt > now) {
        if (existing.status === 'completed') {
          return {
            state: 'completed',
            fingerprint: existing.fingerprint,
            response: { status: existing.responseStatus ?? 200, body: existing.responseBody ?? undefined },
          };
        }
        return {
          state: 'started',
          fingerprint: existing.fingerprint,
          operationId: existing.operationId,
          owner: existing.owner ?? undefined,
          startedAt: existing.startedAt,
          attempt: existing.attempt,
        };
      }
      // Older than its retention (the TTL monitor runs late): forgotten, as if it had never been.
      if (existing) await this.model.deleteOne({ ...id, expiresAt: { $lte: now } });
      if (attempt >= 3) throw new Error('idempotency record kept changing while being claimed');
    }
  }

  /** Takes over a claim whose run never finished; false when another request took it first. */
  async takeOver(id: IdempotencyScope, { attempt, owner }: { attempt: number; owner: string }): Promise<boolean> {
    const result = await this.model.updateOne(
      { ...id, status: 'started', attempt },
      { $set: { owner, startedAt: this.clock() }, $inc: { attempt: 1 } },
    );
    return result.modifiedCount === 1;
  }

  async complete(id: IdempotencyScope, response: StoredResponse): Promise<void> {
    await this.model.updateOne(id, {
      $set: {
        status: 'completed',
        responseStatus: response.status,
        ...(response.body === undefined ? {} : { responseBody: response.body }),
      },
      $unset: { owner: '' },
    });
  }

  /** Forgets a claim whose run failed (5xx) before any write: the retry runs afresh. */
  async release(id: IdempotencyScope, owner: string): Promise<void> {
    await this.model.deleteOne({ ...id, status: 'started', owner });
  }

  /**
   * Leaves a failed run's claim (5xx) for the retry to take over at once, keeping its operation id:
   * a create that stored its document before failing is then found instead of made twice.
   */
  async abandon(id: IdempotencyScope, owner: string): Promise<void> {
    await this.model.updateOne({ ...id, status: 'started', owner }, { $unset: { owner: '' }, $set: { startedAt: new Date(0) } });
  }
}
