// ai_policies for one site: the Copilot policy as stored (only overrides of the defaults), read and replaced whole.
import { type AfterContentRead, type CopilotPolicy, type SkillMode, type StoredPolicy, effectivePolicy } from '@lumibase/shared';
import type { AiModels, PolicyDocument } from './ai-models.js';
import { decodeJson, encodeJson } from '../json-codec.js';
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
  /** The effective policy: every skill with its mode, the defaults where nothing is stored. */
  get(): Promise<CopilotPolicy>;
  /** Merges the change into the stored policy and returns the effective one. */
  update(change: PolicyChange, at: Date): Promise<CopilotPolicy>;
}

export class PolicyStore extends SiteScopedStore implements PolicyRepository {
  constructor(
    private readonly models: Pick<AiModels, 'policies'>,
    siteId: string,
  ) {
    super(siteId);
  }

  async get(): Promise<CopilotPolicy> {
    const document = await this.models.policies.findOne(this.scoped({})).lean<PolicyDocument>();
    return effectivePolicy(document ? stored(document) : null);
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
        if (written) return effectivePolicy(next);
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
