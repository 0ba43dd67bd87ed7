// The audit's hash chain (docs/API.md): hash = SHA-256 hex of prevHash and the entry's canonical JSON
// (keys sorted, without `hash`); the first entry's prevHash is 64 zeros.
import { createHash } from 'node:crypto';
import { canonicalJson } from '@lumibase/shared';

export const GENESIS_HASH = '0'.repeat(64);

/** What an entry's hash covers: everything it says, with its place in the chain. */
export interface ChainedContent {
  siteId: string;
  seq: number;
  prevHash: string;
  action: string;
  skillName?: string;
  approvalId?: string;
  /** `email` only on entries written since it was recorded: older entries hash exactly as before. */
  actor: { id: string; name: string; email?: string };
  detail?: unknown;
  createdAt: string;
}

export function chainHash(content: ChainedContent): string {
  return createHash('sha256').update(content.prevHash).update(canonicalJson(content)).digest('hex');
}
