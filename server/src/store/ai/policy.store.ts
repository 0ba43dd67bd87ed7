// ai_policies for one site: the Copilot policy as stored (only overrides of the defaults), read and replaced whole.
import { type AfterContentRead, type CopilotPolicy, type SkillMode, type StoredPolicy, effectivePolicy } from '@lumibase/shared';
import type { AiModels, PolicyDocument } from './ai-models.js';
import { decodeJson, encodeJson } from '../json-codec.js';
import type { LearnedUnderEpoch } from '../learned-under-epoch.js';
import type { PolicyVersions } from './policy-versions.js';
import { SiteScopedStore } from '../site-scoped.js';

/** What a change names; skills and limits not named keep theirs, a limit `null` is removed. */
export interface PolicyChange {
  selfApproval?: boolean;
  skills?: Record<string, SkillMode>;
  afterContentRead?: AfterContentRead;
  limits?: Record<string, number | null>;
}

export interface PolicyRepository {
  readonly siteId: string;
  /**
   * The effective policy: every skill with its mode, the defaults where nothing is stored; at least as new as the last
   * change that answered before this call (also inside a turn that began before that change).
   */
  get(): Promise<CopilotPolicy>;
  /** Merges the change into the stored policy and returns the effective one. */
  update(change: PolicyChange, at: Date): Promise<CopilotPolicy>;
}

/**
 * Policies as this process last read them, by site, trusted under the site's policy version they were read under:
 * every change sets a new version after its write and before it answers (policy-versions.ts). Each get reads the
 * version first (one Redis GET, no MongoDB read), so a gate call made after a change answered, on any server, never
 * sees the policy from before it, also in the middle of a turn. (It was trusted under the access epoch the request
 * began with, so a turn already running kept its policy for up to a minute.)
 */
export interface PolicyCache {
  learned: LearnedUnderEpoch<CopilotPolicy>;
  versions: PolicyVersions;
}

export class PolicyStore extends SiteScopedStore implements PolicyRepository {
  constructor(
    private readonly models: Pick<AiModels, 'policies'>,
    siteId: string,
    /** Absent (tests, tools): every get reads. */
    private readonly cache?: PolicyCache,
  ) {
    super(siteId);
  }

  async get(): Promise<CopilotPolicy> {
    const version = await this.cache?.versions.current(this.siteId);
    const trusted = this.cache && version !== undefined ? this.cache.learned.get(this.siteId, version) : undefined;
    // Copies in and out: what one call does with its policy must not reach the next.
    if (trusted) return structuredClone(trusted);
    const document = await this.models.policies.findOne(this.scoped({})).lean<PolicyDocument>();
    const policy = effectivePolicy(document ? stored(document) : null);
    // Learned under the version read before this read: a change between the two moved it, and this is never trusted.
    if (this.cache && version !== undefined) this.cache.learned.set(this.siteId, version, structuredClone(policy));
    return policy;
  }

  async update(change: PolicyChange, at: Date): Promise<CopilotPolicy> {
    // Read, merge, write with the read value as the condition: two concurrent changes both land.
    for (let attempt = 0; attempt < 20; attempt++) {
      const document = await this.models.policies.findOne(this.scoped({})).lean<PolicyDocument>();
      const current = document ? stored(document) : { skills: {}, limits: {} };
      const limits: Record<string, number> = { ...current.limits };
      for (const [name, limit] of Object.entries(change.limits ?? {})) {
        if (limit === null) delete limits[name];
        else limits[name] = limit;
      }
      const selfApproval = change.selfApproval ?? current.selfApproval;
      const afterContentRead = change.afterContentRead ?? current.afterContentRead;
      const next: StoredPolicy = {
        ...(selfApproval !== undefined ? { selfApproval } : {}),
        skills: { ...current.skills, ...change.skills },
        ...(afterContentRead ? { afterContentRead } : {}),
        limits,
      };
      const $set: Record<string, unknown> = { skillsJson: encodeJson(next.skills), limitsJson: encodeJson(limits), updatedAt: at };
      if (next.selfApproval !== undefined) $set.selfApproval = next.selfApproval;
      if (next.afterContentRead !== undefined) $set.afterContentRead = next.afterContentRead;
      try {
        const written = await this.models.policies.findOneAndUpdate(
          this.scoped(document ? { updatedAt: document.updatedAt, skillsJson: document.skillsJson ?? null } : {}),
          { $set },
          { upsert: !document, new: true },
        );
        if (written) {
          await this.cache?.versions.advance(this.siteId);
          return effectivePolicy(next);
        }
      } catch {
        // Another first write of this site's policy won the upsert: read again.
      }
    }
    throw new Error('The Copilot policy changed too often to be updated');
  }
}

function stored(document: PolicyDocument): StoredPolicy & { skills: Record<string, SkillMode>; limits: Record<string, number> } {
  return {
    ...(document.selfApproval != null ? { selfApproval: document.selfApproval } : {}),
    skills: document.skillsJson ? (decodeJson(document.skillsJson) as Record<string, SkillMode>) : {},
    ...(document.afterContentRead ? { afterContentRead: document.afterContentRead as AfterContentRead } : {}),
    limits: document.limitsJson ? (decodeJson(document.limitsJson) as Record<string, number>) : {},
  };
}
