// What a content write may carry besides its input: who asked, and an id that makes a retry harmless.
import type { RevisionVia } from '@lumibase/shared';

export interface WriteContext {
  actor?: { id: string; name: string };
  /**
   * Set by callers that may run the same write twice (an approved skill run by an at-least-once
   * worker). Creates use it to return the first result instead of creating a duplicate.
   */
  operationId?: string;
  /**
   * With `operationId`: the caller knows this is the operation's first run (its id was made for it just now, or the
   * caller holds proof that no earlier run began), so nothing can carry the id yet and a create writes at once. Without
   * it, a create first looks for what an earlier run of the operation created, wherever that item went since.
   */
  firstRun?: boolean;
  /** How the change came about, recorded on the item's revision (default `rest`). */
  via?: RevisionVia;
  /** The approval that authorised the change, if any. */
  approvalId?: string;
}
