// Skill executors: what each Copilot skill does, over the CMS services, idempotent under its operation id.
export { createSkillExecutors } from './create-skill-executors.js';
export type { SkillDependencies } from './skill-dependencies.js';
export { runOnce } from './run-once.js';
