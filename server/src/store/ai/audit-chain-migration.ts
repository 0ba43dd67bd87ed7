// One-time, at start-up: audit entries written before the hash chain existed (no seq, prevHash, hash)
// made verify() report brokenAt: 1. Each site's such entries are chained, oldest first, onto the end of
// its chain, and a `chain_migrated` entry says how many. Safe with several servers starting at once:
// a site is claimed (with a lease, so a crashed claimer's site is taken over later), each entry is
// chained by a compare-and-set on its missing seq, and seqs are allocated under the unique seq index
// as appends are. Once every site is done a marker ends the migration for good: an entry inserted
// behind the API's back afterwards is never chained, so verify() still names it.
import { randomUUID } from 'node:crypto';
import type { Document } from 'mongodb';
import { type Connection, type Model, Schema, type Types } from 'mongoose';
import type { Logger } from '../../logger.js';
import { isDuplicateKeyError } from '../duplicate-key.js';
import { queuesFor } from '../event-log.store.js';
import { chainHash, GENESIS_HASH } from './audit-chain.js';
import { AuditStore, contentOf } from './audit.store.js';
import type { AiModels, AuditDocument } from './ai-models.js';

/** As the other entries the system writes (approval expiry). */
const SYSTEM_ACTOR = { id: 'system', name: 'LumiBase' };
const LEASE_MS = 5 * 60_000;
const ALL_SITES = 'all';
const MAX_ATTEMPTS = 1_000;

interface MigrationState {
  _id: string;
  owner?: string;
  leaseUntil?: Date;
  doneAt?: Date;
}

const stateSchema = new Schema<MigrationState>(
  { _id: { type: String, required: true }, owner: String, leaseUntil: Date, doneAt: Date },
  { collection: 'ai_audit_chain_migration', versionKey: false, autoIndex: false },
);

export interface AuditChainMigrationOptions {
  connection: Connection;
  models: Pick<AiModels, 'audit' | 'auditHeads'>;
  /** This server; two servers migrating at once must differ. */
  owner: string;
  clock?: () => Date;
}

export interface AuditChainMigrationResult {
  /** Sites whose legacy entries this run chained. */
  sites: number;
  /** Entries this run chained. */
  chained: number;
}

export class AuditChainMigration {
  private readonly state: Model<MigrationState>;

  constructor(private readonly options: AuditChainMigrationOptions) {
    const { connection } = options;
    this.state =
      (connection.models.AuditChainMigration as Model<MigrationState> | undefined) ?? connection.model('AuditChainMigration', stateSchema);
  }

  private now(): Date {
    return (this.options.clock ?? (() => new Date()))();
  }

  async run(): Promise<AuditChainMigrationResult> {
    const result: AuditChainMigrationResult = { sites: 0, chained: 0 };
    if (await this.state.exists({ _id: ALL_SITES, doneAt: { $exists: true } })) return result;
    const siteIds = (await this.options.models.audit.distinct('siteId', { seq: { $exists: false } })) as Types.ObjectId[];
    let everySiteDone = true;
    for (const siteId of siteIds) {
      const site = siteId.toHexString();
      const claim = await this.claim(`site:${site}`);
      if (claim === 'done') continue;
      if (claim === 'held') {
        everySiteDone = false;
        continue;
      }
      const chained = await this.chainSite(site);
      if (chained.count > 0) {
        await new AuditStore(this.options.models, site).append({
          action: 'chain_migrated',
          actor: SYSTEM_ACTOR,
          detail: { entries: chained.count, from: chained.from, to: chained.to },
          createdAt: this.now().toISOString(),
        });
        result.sites += 1;
        result.chained += chained.count;
      }
      await this.state.updateOne({ _id: `site:${site}` }, { $set: { doneAt: this.now() } });
    }
    if (everySiteDone) await this.state.updateOne({ _id: ALL_SITES }, { $set: { doneAt: this.now() } }, { upsert: true });
    return result;
  }

  /** Takes a site for this server: free, its own, or another's whose lease ran out. */
  private async claim(id: string): Promise<'claimed' | 'held' | 'done'> {
    const now = this.now();
    try {
      const taken = await this.state.findOneAndUpdate(
        { _id: id, doneAt: { $exists: false }, $or: [{ owner: this.options.owner }, { leaseUntil: { $lt: now } }] },
        { $set: { owner: this.options.owner, leaseUntil: new Date(now.getTime() + LEASE_MS) } },
        { upsert: true, new: true },
      );
      if (taken) return 'claimed';
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    // The upsert collided with an existing state: done, or another server's within its lease.
    return (await this.state.exists({ _id: id, doneAt: { $exists: true } })) ? 'done' : 'held';
  }

  /** Chains the site's entries without a seq, oldest first; those another server chained meanwhile are skipped. */
  private async chainSite(siteId: string): Promise<{ count: number; from?: string; to?: string }> {
    const { audit } = this.options.models;
    const legacy = await audit
      .find({ siteId, seq: { $exists: false } })
      .sort({ createdAt: 1, _id: 1 })
      .lean<AuditDocument[]>();
    let count = 0;
    let from: string | undefined;
    let to: string | undefined;
    for (const document of legacy) {
      const chained = await queuesFor(audit).run(siteId, () => this.chainOne(siteId, document));
      if (!chained) continue;
      count += 1;
      from ??= document.createdAt.toISOString();
      to = document.createdAt.toISOString();
    }
    return { count, ...(from ? { from } : {}), ...(to ? { to } : {}) };
  }

  private async chainOne(siteId: string, document: AuditDocument): Promise<boolean> {
    const { audit, auditHeads } = this.options.models;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const last = await audit
        .findOne({ siteId, seq: { $type: 'number' } }, { seq: 1, hash: 1 })
        .sort({ seq: -1 })
        .lean<{ seq: number; hash: string }>();
      const seq = (last?.seq ?? 0) + 1;
      const prevHash = last?.hash ?? GENESIS_HASH;
      const hash = chainHash(contentOf({ ...document, seq, prevHash } as AuditDocument));
      try {
        const updated = await audit.updateOne({ _id: document._id, siteId, seq: { $exists: false } }, { $set: { seq, prevHash, hash } });
        if (updated.matchedCount === 0) return false;
        await auditHeads
          .updateOne({ siteId, seq: { $lt: seq } } as Document, { $set: { seq, hash } }, { upsert: true })
          .catch((error: unknown) => {
            if (!isDuplicateKeyError(error)) throw error;
          });
        return true;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
    }
    throw new Error(`could not chain audit entry ${String(document._id)} of site ${siteId} after ${MAX_ATTEMPTS} attempts`);
  }
}

/**
 * The start-up run (compose-domain.ts). A failure is logged, not thrown: the server still starts,
 * and verify() keeps naming the unchained entries until a later start-up chains them.
 */
export async function migrateAuditChainAtStart(options: Omit<AuditChainMigrationOptions, 'owner'> & { logger: Logger }): Promise<void> {
  const { logger, ...rest } = options;
  try {
    const result = await new AuditChainMigration({ ...rest, owner: randomUUID() }).run();
    if (result.chained > 0) logger.info(result, 'chained audit entries written before the hash chain existed');
  } catch (error) {
    logger.error({ err: error }, 'the audit chain migration failed; it runs again at the next start');
  }
}
