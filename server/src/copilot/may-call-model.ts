// The one question asked before a model call that a run makes on a user's behalf without their request in hand (the
// run's continuation): may this call be made now? Today the answer is the user's model-call limit, shared with chat,
// /ai/skills and /ai/search; the site's monthly budget (docs/API.md, "Usage, budgets and traces") is the next refusal to
// plug in here, as a BudgetExhaustedError beside the RateLimitedError.
import type { ChatRateLimiter } from './chat-rate-limiter.js';

export interface ModelCallRequest {
  siteId: string;
  /** Whose call it is: the requester of the run. */
  userId: string;
}

/** Resolves when the call may be made, and counts it; rejects with RateLimitedError (retryAfterSeconds) when not. */
export type MayCallModel = (call: ModelCallRequest) => Promise<void>;

export function mayCallModelWithin(limiter: Pick<ChatRateLimiter, 'consume'>): MayCallModel {
  return ({ userId }) => limiter.consume(userId);
}
