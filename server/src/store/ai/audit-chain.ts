// The audit's hash chain (API.md): hash = SHA-256 hex of prevHash and the entry's canonical JSON
// (keys sorted, without `hash`); the first entry's prevHash is 64 zeros.
import { createHash } from 'node:crypto';

export const GENESIS_HASH = '0'.repeat(64);

/** What an entry's hash covers: everything it says, with its place in the chain. */
export interface ChainedContent {
  siteId: string;
  seq: number;
  prevHash: string;
  action: string;
  skillName?: string;
  approvalId?: string;
  actor: { id: string; name: string };
  detail?: unknown;
  createdAt: string;
}

/**
 * JSON with object keys sorted (by UTF-16 code units), built as text so that no key (`__proto__`
 * included) is ever assigned onto an object. Undefined members are left out, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) return `[${value.map((element) => (element === undefined ? 'null' : canonicalJson(element))).join(',')}]`;
  const keys = Object.keys(value).sort();
  const members: string[] = [];
  for (const key of keys) {
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined) continue;
    members.push(`${JSON.stringify(key)}:${canonicalJson(member)}`);
  }
  return `{${members.join(',')}}`;
}

export function chainHash(content: ChainedContent): string {
  return createHash('sha256').update(content.prevHash).update(canonicalJson(content)).digest('hex');
}
