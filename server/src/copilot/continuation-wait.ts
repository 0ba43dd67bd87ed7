// A continuation that may not call the model yet (the requester's model-call limit): it waits, and the conversation
// says so once, in words, under an id derived from the settlement's note so that every retry finds it there. Waiting
// serves the requester better than giving up with a note: the outcome is already in the conversation, and the reply
// they would otherwise have to ask for again (one more model call) comes by itself within the minute.
import { createHash } from 'node:crypto';
import type { RateLimitedError } from '@lumibase/shared';

/** How long to wait when the refusal did not say (one sliding window's length at most). */
const DEFAULT_WAIT_SECONDS = 60;

/** The id of the waiting message: one per note, however many times the continuation is tried. */
export function continuationWaitId(noteId: string): string {
  return createHash('sha256').update(`continuation-wait:${noteId}`).digest('hex').slice(0, 24);
}

export function waitSecondsOf(refusal: RateLimitedError): number {
  return refusal.retryAfterSeconds ?? DEFAULT_WAIT_SECONDS;
}

/** What the requester reads: why nothing follows yet, and that it will without them asking again. */
export function waitingWords(refusal: RateLimitedError): string {
  const seconds = waitSecondsOf(refusal);
  return (
    `You have used all the Copilot model calls you may make in a minute, so I will take up this outcome in about ` +
    `${seconds} second${seconds === 1 ? '' : 's'}. There is nothing you need to do.`
  );
}

/**
 * A turn refused part-way stops there and says so: it cannot wait and be taken up again, since a retry would run the
 * calls it already made a second time.
 */
export function stoppedWords(refusal: RateLimitedError): string {
  return (
    'You have used all the Copilot model calls you may make in a minute, so I stopped taking up this outcome here; ' +
    `nothing more was run. Ask me again in about ${waitSecondsOf(refusal)} seconds to go on.`
  );
}
