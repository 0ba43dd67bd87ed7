// POST /ai/skills/:name: the Studio runs one safe skill (aiSuggestField, aiContentAssist, searchItems…) directly, with no
// model, through the Copilot's gate. Dangerous skills → 403: they go through the Copilot and an approval.
import { RunSkillRequest } from '@lumibase/shared';
import { type Request, Router } from 'express';
import type { HarnessActor } from '../harness/ai-secure-harness.js';
import type { RunSkillService } from '../services/copilot/index.js';
import { parseInput, routeParam, sendData } from './parse-input.js';
import { currentSiteId, currentUser } from './require-capabilities.js';

export interface AiSkillsRouterOptions {
  skills: Pick<RunSkillService, 'run'>;
}

function actorOf(request: Request): HarnessActor {
  const user = currentUser(request);
  return { id: user.id, name: user.name, capabilities: request.context.capabilities ?? [], isSuperadmin: user.isSuperadmin };
}

/** Mounted at /ai/skills after tenancy. */
export function createAiSkillsRouter({ skills }: AiSkillsRouterOptions): Router {
  const router = Router();

  router.post('/:name', async (request, response) => {
    const args = parseInput(RunSkillRequest, request.body ?? {}, 'body');
    const outcome = await skills.run({
      siteId: currentSiteId(request),
      actor: actorOf(request),
      name: routeParam(request, 'name'),
      arguments: args,
    });
    sendData(response, outcome.status === 'pending_approval' ? 202 : 200, outcome);
  });

  return router;
}
