// POST /ai/skills/:name: the Studio runs one safe skill (aiSuggestField, aiContentAssist, searchItems…) directly, with no
// model, through the Copilot's gate. Dangerous skills → 403: they go through the Copilot and an approval.
import { RunSkillRequest, RunSkillResponse } from '@lumibase/shared';
import type { RunSkillService } from '../copilot/index.js';
import { actorOf } from './ai.router.js';
import { declaredRouter, type MountedRouter, mountedRouter, mountPathOf } from './mount-route.js';
import { sendData } from './parse-input.js';
import { currentSiteId } from './require-capabilities.js';
import { declareRoute } from './route.js';

export const AI_SKILLS_ROUTES = {
  run: declareRoute({
    method: 'post',
    path: '/api/v1/ai/skills/:name',
    summary: 'Run one safe skill directly (no model) through the Copilot’s gate; dangerous skills → 403',
    tag: 'Copilot',
    auth: 'session',
    site: true,
    access: { checks: ['skill-capabilities'] },
    body: RunSkillRequest,
    bodyOptional: true,
    success: {
      status: 200,
      description: 'The executed outcome (202 with `pending_approval` when the site’s policy makes the skill ask)',
      schema: RunSkillResponse,
    },
    errors: [404, 429],
  }),
};

export interface AiSkillsRouterOptions {
  skills: Pick<RunSkillService, 'run'>;
}

/** Mounted below /api/v1 at the path its declarations share (mountPathOf), after tenancy. */
export function createAiSkillsRouter({ skills }: AiSkillsRouterOptions): MountedRouter {
  const declared = declaredRouter({ base: mountPathOf(AI_SKILLS_ROUTES) }).route(
    AI_SKILLS_ROUTES.run,
    async ({ params, body }, request, response) => {
      const outcome = await skills.run({ siteId: currentSiteId(request), actor: actorOf(request), name: params.name, arguments: body });
      sendData(response, outcome.status === 'pending_approval' ? 202 : 200, outcome);
    },
  );
  return mountedRouter(declared);
}
