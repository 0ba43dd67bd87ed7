// ai_audit for one site: one entry per Copilot action, newest first, chained by SHA-256 in seq order.
import { type AuditEntry, type AuditVerification, actorRefOf } from '@lumibase/shared';
import { Types } from 'mongoose';
import { isDuplicateKeyError } from '../duplicate-key.js';
import { cachedHeadsFor } from '../cached-head.js';
import { queuesFor } from '../event-log.store.js';
import { decodeJson, encodeJson } from '../json-codec.js';
import { toIso } from '../object-id.js';
import { SiteScopedStore } from '../site-scoped.js';
import { type ChainedContent, chainHash, GENESIS_HASH } from './audit-chain.js';
import type { AiModels, AuditDocument } from './ai-models.js';

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'siteId' | 'seq' | 'prevHash' | 'hash'>;

export interface AuditRepository {
  readonly siteId: string;
  append(entry: NewAuditEntry): Promise<AuditEntry>;
  /**
   * Appends the entry under this id unless an entry with it is there already (a second relay pass, a
   * concurrent relay in another process): an owed entry lands once, and the chain stays gap-free.
   */
  appendOnce(id: string, entry: NewAuditEntry): Promise<void>;
  list(options?: { limit?: number; offset?: number }): Promise<AuditEntry[]>;
  /** The entries about one approval, oldest first. */
  ofApproval(approvalId: string): Promise<AuditEntry[]>;
  count(): Promise<number>;
  /** Walks the chain in seq order with a cursor (bounded memory) and names the first broken seq. */
  verify(): Promise<AuditVerification>;
}

const MAX_APPEND_ATTEMPTS = 1_000;

interface ChainHead {
  seq: number;
  hash: string;
}
const VERIFY_BATCH = 1_000;

function toAuditEntry(document: AuditDocument): AuditEntry {
  const entry: AuditEntry = {
    id: document._id.toHexString(),
    siteId: document.siteId.toString(),
    action: document.action,
    actor: actorRefOf(document.actor),
    createdAt: toIso(document.createdAt),
  };
  if (document.skillName != null) entry.skillName = document.skillName;
  if (document.approvalId != null) entry.approvalId = document.approvalId;
  if (document.detailJson != null) entry.detail = decodeJson(document.detailJson) as Record<string, unknown>;
  if (document.seq != null) entry.seq = document.seq;
  if (document.prevHash != null) entry.prevHash = document.prevHash;
  if (document.hash != null) entry.hash = document.hash;
  return entry;
}

/** What the hash covers, as read back from a stored document. */
export function contentOf(document: AuditDocument): ChainedContent {
  return {
    siteId: document.siteId.toString(),
    seq: document.seq as number,
    prevHash: document.prevHash as string,
    action: document.action,
    ...(document.skillName != null ? { skillName: document.skillName } : {}),
    ...(document.approvalId != null ? { approvalId: document.approvalId } : {}),
    actor: actorRefOf(document.actor),
    ...(document.detailJson != null ? { detail: decodeJson(document.detailJson) } : {}),
    createdAt: toIso(document.createdAt),
  };
}

const STORED_FIELDS = new Set([
  '_id',
  'siteId',
  'seq',
  'prevHash',
  'hash',
  'action',
  'skillName',
  'approvalId',
  'actor',
  'detailJson',
  'createdAt',
]);

/** A field the API never writes (added behind its back) is a change the hash cannot see: it breaks the chain too. */
function onlyStoredFields(document: AuditDocument): boolean {
  const actorKeys = Object.keys((document.actor ?? {}) as object);
  return (
    Object.keys(document).every((key) => STORED_FIELDS.has(key)) &&
    actorKeys.every((key) => key === 'id' || key === 'name' || key === 'email')
  );
}

export class AuditStore extends SiteScopedStore implements AuditRepository {
  constructor(
    private readonly models: Pick<AiModels, 'audit' | 'auditHeads'>,
    siteId: string,
  ) {
    super(siteId);
  }

  /**
   * Appends as `last + 1`, linked to the last entry's hash. When another process took that seq
   * (E11000 on the seq index), the new last is read and the entry is linked to it instead: the
   * chain stays linear and gap-free.
   */
  append(entry: NewAuditEntry): Promise<AuditEntry> {
    // Appends of one site wait for each other inside a process; processes race on the unique seq index.
    // appendNow gives null only for an entry with a fixed id that landed already.
    return queuesFor(this.models.audit).run(this.siteId, async () => (await this.appendNow(entry)) as AuditEntry);
  }

  appendOnce(id: string, entry: NewAuditEntry): Promise<void> {
    return queuesFor(this.models.audit).run(this.siteId, async () => {
      await this.appendNow(entry, new Types.ObjectId(id));
    });
  }

  /**
   * With `fixedId`, a duplicate key on it means the entry landed already (another appender): nothing is added.
   * The entry is linked to the last one this process appended or saw (see cached-head.ts), read from the head only
   * when unknown or, on a site another process appends to, first in a turn (CachedHeads.readFirst); after a
   * collision the entries themselves are read (the head may lag behind them). Every seq tried is the successor of an entry that exists or existed, as in the site event log (which explains the trust window);
   * entries removed from the end stay visible to verify(), because the head is never moved back: an entry linked
   * to a stale cache below it leaves the head naming a later seq the chain does not reach.
   */
  private async appendNow(entry: NewAuditEntry, fixedId?: Types.ObjectId): Promise<AuditEntry | null> {
    const { detail, createdAt, ...rest } = entry;
    const detailJson = detail === undefined ? undefined : encodeJson(detail);
    const heads = cachedHeadsFor<ChainHead>(this.models.audit);
    const cached = heads.get(this.siteId);
    let last: ChainHead | null;
    if (!cached) last = await this.head();
    else if (heads.readFirst(this.siteId)) {
      // Processes take turns on this site (see CachedHeads.readFirst): link to the later of the cached head and the
      // stored one, each naming an entry that exists or existed with its hash.
      const stored = await this.storedHead();
      heads.sawHead(this.siteId, stored?.seq ?? 0);
      last = stored && stored.seq > cached.seq ? stored : cached;
    } else last = cached;
    for (let attempt = 0; attempt < MAX_APPEND_ATTEMPTS; attempt++) {
      const seq = (last?.seq ?? 0) + 1;
      const prevHash = last?.hash ?? GENESIS_HASH;
      const _id = fixedId ?? new Types.ObjectId();
      const document = this.owned({
        _id,
        ...rest,
        createdAt: new Date(createdAt),
        ...(detailJson === undefined ? {} : { detailJson }),
        seq,
        prevHash,
      });
      const hash = chainHash(contentOf({ ...document, hash: '' } as unknown as AuditDocument));
      try {
        await this.models.audit.insertMany([{ ...document, hash }], { lean: true });
        const head = await this.advanceHead(seq, hash);
        heads.appended(this.siteId, head && head.seq > seq ? head : { seq, hash });
        return { ...entry, id: _id.toHexString(), siteId: this.siteId, seq, prevHash, hash };
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        // The _id index refused it, or the seq index did while another appender landed the same entry.
        if (fixedId && (await this.models.audit.exists(this.scoped({ _id: fixedId })))) return null;
        heads.collided(this.siteId);
        last = await this.lastEntry();
        if (last) heads.learn(this.siteId, last);
      }
    }
    throw new Error(`could not allocate an audit seq for site ${this.siteId} after ${MAX_APPEND_ATTEMPTS} attempts`);
  }

  private async head(): Promise<ChainHead | null> {
    const head = await this.storedHead();
    if (head) cachedHeadsFor<ChainHead>(this.models.audit).learn(this.siteId, { seq: head.seq, hash: head.hash });
    return head;
  }

  private storedHead(): Promise<ChainHead | null> {
    return this.models.auditHeads.findOne(this.scoped({}), { seq: 1, hash: 1 }).lean<ChainHead>();
  }

  private lastEntry(): Promise<ChainHead | null> {
    return this.models.audit
      .findOne(this.scoped({ seq: { $type: 'number' } }), { seq: 1, hash: 1 })
      .sort({ seq: -1 })
      .lean<ChainHead>();
  }

  /**
   * Moves the head forward, never back, in one round trip that also answers where the head is now. The pipeline
   * sees the head as it was: `hash` follows `seq` only when this entry is the later one.
   */
  private async advanceHead(seq: number, hash: string): Promise<ChainHead | undefined> {
    const current = { $ifNull: ['$seq', 0] };
    try {
      const head = await this.models.auditHeads
        .findOneAndUpdate(
          this.scoped({}),
          [{ $set: { hash: { $cond: [{ $lt: [current, seq] }, hash, '$hash'] }, seq: { $max: [current, seq] } } }],
          { upsert: true, returnDocument: 'after', projection: { seq: 1, hash: 1 } },
        )
        .lean<ChainHead>();
      return head ? { seq: head.seq, hash: head.hash } : undefined;
    } catch (error) {
      // Two first entries of a site upserting at once: the other one's head is there, and at least as far.
      if (!isDuplicateKeyError(error)) throw error;
      return undefined;
    }
  }

  async list({ limit = 25, offset = 0 }: { limit?: number; offset?: number } = {}): Promise<AuditEntry[]> {
    const documents = await this.models.audit
      .find(this.scoped({}))
      .sort({ createdAt: -1, _id: -1 })
      .skip(offset)
      .limit(limit)
      .lean<AuditDocument[]>();
    return documents.map(toAuditEntry);
  }

  async ofApproval(approvalId: string): Promise<AuditEntry[]> {
    const documents = await this.models.audit.find(this.scoped({ approvalId })).sort({ createdAt: 1, _id: 1 }).lean<AuditDocument[]>();
    return documents.map(toAuditEntry);
  }

  count(): Promise<number> {
    return this.models.audit.countDocuments(this.scoped({}));
  }

  /**
   * The chain must also end at the head: entries deleted from its end leave a chain that is valid as
   * far as it goes, but shorter than the head says. The head is read first: an entry appended during
   * the walk is already in MongoDB when the head names it.
   */
  async verify(): Promise<AuditVerification> {
    const head = await this.head();
    // Entries without a seq (inserted behind the API's back) sort first and break the chain at 1.
    const cursor = this.models.audit.find(this.scoped({})).sort({ seq: 1 }).batchSize(VERIFY_BATCH).lean<AuditDocument[]>().cursor();
    let expected = 1;
    let prevHash = GENESIS_HASH;
    let entries = 0;
    try {
      for await (const raw of cursor) {
        const document = raw as unknown as AuditDocument;
        entries++;
        const intact =
          document.seq === expected &&
          document.prevHash === prevHash &&
          onlyStoredFields(document) &&
          typeof document.hash === 'string' &&
          document.hash === chainHash(contentOf(document)) &&
          // The entry the head names is the one the head was written for.
          (head?.seq !== expected || head.hash === document.hash);
        if (!intact) {
          // Changed: its own seq. Removed: the next entry skips it, so the missing seq. Inserted: its seq.
          return { valid: false, entries: await this.count(), brokenAt: expected };
        }
        prevHash = document.hash as string;
        expected++;
      }
    } finally {
      await cursor.close();
    }
    // The end removed: the chain stops before the head, at the first missing seq.
    if (head && head.seq >= expected) return { valid: false, entries, brokenAt: expected };
    return { valid: true, entries };
  }
}
