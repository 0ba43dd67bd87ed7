// The access epoch: a value every process reads once per request and every write that can take access away moves
// (a session ended, a user changed or deleted, a membership changed or removed, a site renamed or deleted), so what a
// process learned of a token or a membership is trusted only while the epoch it was learned under stands. (A site's
// Copilot policy has a version of its own, read at every gate call: store/ai/policy-versions.ts.)
import { randomBytes } from 'node:crypto';
import { isDuplicateKeyError } from './duplicate-key.js';
import { FreshReads } from './fresh-reads.js';
import type { AccessEpochModel } from './models/access-epoch.model.js';

const ID = 'access';

/** A value never used before: a restored or emptied collection can never bring an old epoch back (no ABA). */
const freshEpoch = () => randomBytes(12).toString('hex');

export class AccessEpochStore {
  /** Requests and handshakes arriving at once share a read, each one started after they arrived (see FreshReads). */
  private readonly reads = new FreshReads<string>();

  constructor(private readonly epochs: AccessEpochModel) {}

  /**
   * The epoch now: read after the call (a revocation that answered before it is seen), in one read by `_id` on the
   * driver's collection shared with the calls made meanwhile; a write only the first time, or after a wipe.
   */
  current(): Promise<string> {
    return this.reads.read(ID, () => this.read());
  }

  private async read(): Promise<string> {
    const document = await this.epochs.collection.findOne<{ epoch: string }>({ _id: ID as never }, { projection: { epoch: 1 } });
    if (document) return document.epoch;
    // None yet: start one. Two processes starting at once both upsert; the loser finds the winner's value.
    const start = async () =>
      (await this.epochs.collection.findOneAndUpdate(
        { _id: ID as never },
        { $setOnInsert: { epoch: freshEpoch() } },
        { upsert: true, returnDocument: 'after', projection: { epoch: 1 } },
      )) as { epoch?: string } | null;
    let started: { epoch?: string } | null;
    try {
      started = await start();
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      started = await start();
    }
    // Never null after an upsert; were it, a value nothing was learned under is as safe.
    return started?.epoch ?? freshEpoch();
  }

  /**
   * Moves the epoch: called after the write that took access away and before that write's caller answers, so a
   * request that reads the epoch after the revocation answered finds what it learned under the old one stale.
   */
  async advance(): Promise<void> {
    await this.epochs.collection.updateOne({ _id: ID as never }, { $set: { epoch: freshEpoch() } }, { upsert: true });
  }
}
