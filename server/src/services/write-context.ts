// What a content write may carry besides its input: who asked, and an id that makes a retry harmless.
import type { RevisionVia } from '@lumibase/shared';

export interface WriteContext {
  actor?: { id: string; name: string };
  /**
   * Set by callers that may run the same write twice (an approved skill run by an at-least-once
   * worker). Creates use it to return the first result instead of creating a duplicate.
   */
  operationId?: string;
  /** How the change came about, recorded on the item's revision (default `rest`). */
  via?: RevisionVia;
  /** The approval that authorised the change, if any. */
  approvalId?: string;
}
