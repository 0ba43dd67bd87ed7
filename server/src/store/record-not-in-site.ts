// The one answer for a record addressed by id that is not in the caller's site.
import { ForbiddenError } from '@lumibase/shared';

/**
 * Another site's record, a nonexistent one and a malformed id all get this same error, so the
 * answer never tells a caller whether an id exists somewhere else.
 */
const REASON = 'record-not-in-site';

export function recordNotInSite(): ForbiddenError {
  return new ForbiddenError({ message: 'No access to this record', reason: REASON });
}

/** True for the refusal above, as opposed to a ForbiddenError that names a rule the caller broke. */
export function isRecordNotInSite(error: unknown): boolean {
  return error instanceof ForbiddenError && error.reason === REASON;
}
