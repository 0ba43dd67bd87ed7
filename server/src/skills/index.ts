// Skills: one module per Copilot skill (skills/<kebab-name>.ts) holding how it runs and what it would change.
export { createSkillExecutors } from './create-skill-executors.js';
export type { SkillDependencies } from './skill-dependencies.js';
export { runOnce } from './run-once.js';
export { type ApprovalTargets, NO_TARGETS, sameImpact, sameTarget } from './approval-targets.js';
export { inspectSkill, StoreApprovalTargets } from './store-approval-targets.js';
export type { InspectContext, SkillModule, TargetPreview } from './skill-module.js';
export type { SiteView } from './site-view.js';
