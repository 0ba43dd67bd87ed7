// The dispatcher the gate and the approvals call: a skill call's target and impact, from its skill's module, read over
// the site's stores.
import { isSkillName, type SkillArguments, type SkillName } from '@lumibase/shared';
import type { Stores } from '../store/stores.js';
import type { ApprovalTargets } from './approval-targets.js';
import { type SiteView, storeSiteView } from './site-view.js';
import type { InspectContext, TargetPreview } from './skill-module.js';
import { SKILL_MODULES } from './skill-modules.js';

/** A call's target and impact, read through `context.site` (the stores, or any other view of a site). */
export function inspectSkill<Name extends SkillName>(
  name: Name,
  args: SkillArguments<Name>,
  context: InspectContext,
): Promise<TargetPreview> {
  return SKILL_MODULES[name].inspect(args, context);
}

/** Over the CMS stores directly: identities (collection ids) are internal and the services do not show them. */
export class StoreApprovalTargets implements ApprovalTargets {
  /** `trashRetentionDays`: how long a deleted collection or field stays restorable (shown on the card). */
  constructor(
    private readonly stores: Pick<Stores, 'forSite' | 'users'>,
    private readonly options: { trashRetentionDays?: number } = {},
  ) {}

  siteView(siteId: string): { site: SiteView; restorableDays?: number } {
    const { trashRetentionDays } = this.options;
    return {
      site: storeSiteView(this.stores, siteId),
      ...(trashRetentionDays !== undefined ? { restorableDays: trashRetentionDays } : {}),
    };
  }

  /** `args` were parsed with the skill's schema (the gate's call, an approval's stored or edited arguments). */
  async inspect(siteId: string, skillName: string, args: Record<string, unknown>): Promise<TargetPreview> {
    if (!isSkillName(skillName)) return {};
    const { trashRetentionDays } = this.options;
    const context: InspectContext = {
      site: storeSiteView(this.stores, siteId),
      ...(trashRetentionDays !== undefined ? { restorableDays: trashRetentionDays } : {}),
    };
    return inspectSkill(skillName, args as SkillArguments<typeof skillName>, context);
  }
}
