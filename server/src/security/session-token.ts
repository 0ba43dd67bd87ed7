// Opaque session tokens: random to the caller, stored only as their SHA-256.
import { createHash, randomBytes } from 'node:crypto';

const TOKEN_BYTES = 32;

export function generateSessionToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** A token has 256 bits of entropy, so a fast unsalted hash is enough: there is nothing to guess. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Readable ASCII, for a printed bootstrap password. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
