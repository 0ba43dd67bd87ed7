// The SkillExecutors map: each skill module's executor, over the CMS services.
import { SKILL_NAMES, type SkillName } from '@lumibase/shared';
import type { SkillExecutor, SkillExecutors } from './skill-executors.js';
import type { SkillDependencies } from './skill-dependencies.js';
import { SKILL_MODULES } from './skill-modules.js';

export function createSkillExecutors(dependencies: SkillDependencies): SkillExecutors {
  const executorOf = <Name extends SkillName>(name: Name): SkillExecutor<Name> => SKILL_MODULES[name].execute(dependencies);
  // One entry per catalog name, each from its own module (SKILL_MODULES is typed over the names).
  return Object.fromEntries(SKILL_NAMES.map((name) => [name, executorOf(name)])) as SkillExecutors;
}
