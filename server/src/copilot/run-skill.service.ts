// A safe skill run directly by a person (the Studio's Suggest a field, Assist), with no model: the same gate as the
// Copilot's calls (the skill's schema, the caller's capabilities, the site's policy, one audit entry). Dangerous skills
// never run here: only the Copilot may ask for them, and an admin approves.
import {
  ConflictError,
  type DeniedOutcome,
  ForbiddenError,
  findSkill,
  isDangerous,
  NotFoundError,
  RateLimitedError,
  type SkillOutcome,
  UnavailableError,
  ValidationError,
  quotedSkill,
} from '@lumibase/shared';
import type { z } from 'zod';
import type { HarnessActor, HarnessContext, ToolCall } from '../gate/ai-secure-harness.js';

export interface RunSkillInput {
  siteId: string;
  actor: HarnessActor;
  name: string;
  /** Untrusted until the gate parses them with the skill's schema. */
  arguments: Record<string, unknown>;
}

export interface RunSkillServiceOptions {
  harness: { execute(context: HarnessContext, call: ToolCall): Promise<SkillOutcome> };
  /** The per-user limit on model and embedding calls, shared with /ai/chat and /ai/search. */
  rateLimiter: { consume(userId: string): Promise<void> };
}

const NAME_SHOWN = 100;

export class RunSkillService {
  constructor(private readonly options: RunSkillServiceOptions) {}

  /**
   * The executed outcome, or `pending_approval` when the site's policy makes the skill ask. NotFoundError for an
   * unknown skill, ForbiddenError for a dangerous one; a denial by the gate as the error it stands for.
   */
  async run({ siteId, actor, name, arguments: args }: RunSkillInput): Promise<SkillOutcome> {
    const skill = findSkill(name);
    if (!skill) throw new NotFoundError({ message: `No skill named ${name.slice(0, NAME_SHOWN)}` });
    if (isDangerous(skill)) {
      throw new ForbiddenError({
        message: `${quotedSkill(name)} changes the site: only the Copilot may ask for it, and an admin approves it`,
      });
    }
    await this.options.rateLimiter.consume(actor.id);
    const outcome = await this.options.harness.execute({ siteId, actor, message: `Studio: ${skill.action}` }, { name, arguments: args });
    if (outcome.status === 'denied') throw errorFor(outcome);
    return outcome;
  }
}

/** A denial as the domain error it stands for (the gate has already audited it). */
function errorFor(outcome: z.infer<typeof DeniedOutcome>): Error {
  const { message, details } = outcome;
  switch (outcome.reason) {
    case 'invalid_arguments':
      return new ValidationError({ message, ...(details ? { details } : {}) });
    case 'missing_capabilities':
    case 'turned_off':
      return new ForbiddenError({ message });
    case 'limit_reached':
      return new RateLimitedError({ message, retryAfterSeconds: 60 });
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
      // The executor failed inside (the gate reported it): a 500 that says which skill, without internals.
      return new Error(message);
  }
}
