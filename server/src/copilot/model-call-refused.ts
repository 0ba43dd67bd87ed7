// A call of a skill that itself calls a model or the embedder counts as one more model call of its caller
// (docs/API.md, "The gate's tiers and limits"): beyond the limit it is denied unrun, in a chat turn as over MCP.
import { findSkill, quotedSkill, RateLimitedError, type SkillOutcome } from '@lumibase/shared';

/** `count` takes one model call from the caller's limit (RateLimitedError beyond it); undefined when it may run. */
export async function modelCallRefused(
  call: { name: string; arguments: unknown },
  count: (() => Promise<unknown>) | undefined,
): Promise<SkillOutcome | undefined> {
  if (!count || !findSkill(call.name)?.callsModel) return undefined;
  try {
    await count();
    return undefined;
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
    return {
      status: 'denied',
      skill: { name: call.name, arguments: call.arguments },
      reason: 'limit_reached',
      message: `${error.message}: ${quotedSkill(call.name)} was not run`,
    };
  }
}
