// Which of two copies of one approval is the later: the events, the decide and edit replies and the reads over HTTP
// race each other, and a copy that arrives last is not always the newest.
import type { ApprovalJson } from '@lumibase/shared';

/**
 * Whether `a` is a later state of the same approval than `b`. Every change of an approval moves its `revision` by one
 * (docs/API.md), status changes included, so the higher revision is the later state whatever `updatedAt` says (two
 * changes within one millisecond share it); the same revision is the same state.
 */
export function isNewer(a: ApprovalJson, b: ApprovalJson): boolean {
  return a.revision > b.revision;
}
