// POST /ai/skills/:name: the Studio runs one safe skill (aiSuggestField, aiContentAssist, searchItems…) directly, with no
// model, through the same gate as the Copilot: the skill's schema, the caller's capabilities, the site's policy, the audit.
// Dangerous skills never run here: they go through the Copilot and an approval.
import {
  ConflictError,
  type DeniedOutcome,
  ForbiddenError,
  findSkill,
  isDangerous,
  NotFoundError,
  RunSkillRequest,
  type SkillOutcome,
  UnavailableError,
  ValidationError,
} from '@lumibase/shared';
import { type Request, Router } from 'express';
import type { z } from 'zod';
import type { HarnessActor, HarnessContext, ToolCall } from '../harness/ai-secure-harness.js';
import { parseInput, routeParam, sendData } from './parse-input.js';
import { currentSiteId, currentUser } from './require-capabilities.js';

export interface AiSkillsRouterOptions {
  harness: { execute(context: HarnessContext, call: ToolCall): Promise<SkillOutcome> };
}

function actorOf(request: Request): HarnessActor {
  const user = currentUser(request);
  return { id: user.id, name: user.name, capabilities: request.context.capabilities ?? [], isSuperadmin: user.isSuperadmin };
}

/** Mounted at /ai/skills after tenancy. */
export function createAiSkillsRouter({ harness }: AiSkillsRouterOptions): Router {
  const router = Router();

  router.post('/:name', async (request, response) => {
    const name = routeParam(request, 'name');
    const skill = findSkill(name);
    if (!skill) throw new NotFoundError({ message: `No skill named ${name.slice(0, 100)}` });
    if (isDangerous(skill)) {
      throw new ForbiddenError({ message: `${name} changes the site: only the Copilot may ask for it, and an admin approves it` });
    }
    const args = parseInput(RunSkillRequest, request.body ?? {}, 'body');
    const outcome = await harness.execute(
      { siteId: currentSiteId(request), actor: actorOf(request), message: `Studio: ${name}` },
      { name, arguments: args },
    );
    if (outcome.status === 'denied') throw errorFor(outcome);
    sendData(response, outcome.status === 'pending_approval' ? 202 : 200, outcome);
  });

  return router;
}

/** A denial as the HTTP error a REST client expects (the gate has already audited it). */
function errorFor(outcome: z.infer<typeof DeniedOutcome>): Error {
  const { message, details } = outcome;
  switch (outcome.reason) {
    case 'invalid_arguments':
      return new ValidationError({ message, ...(details ? { details } : {}) });
    case 'missing_capabilities':
    case 'turned_off':
      return new ForbiddenError({ message });
    default:
      break;
  }
  switch (outcome.code) {
    case 'VALIDATION_FAILED':
      return new ValidationError({ message, ...(details ? { details } : {}) });
    case 'NOT_FOUND':
      return new NotFoundError({ message });
    case 'CONFLICT':
      return new ConflictError({ message });
    case 'FORBIDDEN':
      return new ForbiddenError({ message });
    case 'UNAVAILABLE':
      return new UnavailableError({ message });
    default:
      // The executor failed inside (already reported by the gate): a 500 whose message says so without internals.
      return new Error(message);
  }
}
