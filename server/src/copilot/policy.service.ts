// The site's Copilot policy: read by any member, changed (and audited) by those who hold users:write and approvals:decide.
import type { ActorRef, CopilotPolicy, PutPolicyRequest } from '@lumibase/shared';
import type { AiStoreFactory } from '../store/ai/ai-stores.js';

export class PolicyService {
  constructor(
    private readonly stores: Pick<AiStoreFactory, 'forSite'>,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  get(siteId: string): Promise<CopilotPolicy> {
    return this.stores.forSite(siteId).policy.get();
  }

  /** `change` was parsed with PutPolicyRequest: known skills only, no dangerous one `auto` or `warn`. */
  async update(siteId: string, change: PutPolicyRequest, actor: ActorRef): Promise<CopilotPolicy> {
    const { policy, audit } = this.stores.forSite(siteId);
    const at = this.clock();
    const before = await policy.get();
    const after = await policy.update(
      {
        ...(change.selfApproval !== undefined ? { selfApproval: change.selfApproval } : {}),
        ...(change.skills ? { skills: change.skills } : {}),
        ...(change.afterContentRead ? { afterContentRead: change.afterContentRead } : {}),
        ...(change.limits ? { limits: change.limits } : {}),
      },
      at,
    );
    const changedSkills = Object.fromEntries(
      Object.entries(after.skills)
        .filter(([name, mode]) => before.skills[name] !== mode)
        .map(([name, mode]) => [name, { from: before.skills[name], to: mode }]),
    );
    const changedLimits = Object.fromEntries(
      [...new Set([...Object.keys(before.limits), ...Object.keys(after.limits)])]
        .filter((name) => before.limits[name] !== after.limits[name])
        .map((name) => [name, { from: before.limits[name] ?? null, to: after.limits[name] ?? null }]),
    );
    await audit.append({
      action: 'policy_changed',
      actor,
      detail: {
        ...(before.selfApproval !== after.selfApproval ? { selfApproval: { from: before.selfApproval, to: after.selfApproval } } : {}),
        skills: changedSkills,
        ...(before.afterContentRead !== after.afterContentRead
          ? { afterContentRead: { from: before.afterContentRead, to: after.afterContentRead } }
          : {}),
        ...(Object.keys(changedLimits).length > 0 ? { limits: changedLimits } : {}),
      },
      createdAt: at.toISOString(),
    });
    return after;
  }
}
