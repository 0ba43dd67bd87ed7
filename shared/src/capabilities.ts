// The capability vocabulary, role presets and the one capability check everything uses.
import { z } from 'zod';

export const CAPABILITIES = ['schema:read', 'schema:write', 'content:read', 'content:write', 'users:write', 'approvals:decide'] as const;
export const WILDCARD = '*' as const;

export const Capability = z.enum(CAPABILITIES);
export type Capability = z.infer<typeof Capability>;
/** What a membership may hold: a real capability, or `*` (superadmins only). */
export const GrantedCapability = z.union([Capability, z.literal(WILDCARD)]);
export type GrantedCapability = z.infer<typeof GrantedCapability>;

export const Role = z.enum(['admin', 'editor', 'viewer']);
export type Role = z.infer<typeof Role>;

export const ROLE_PRESETS: Record<Role, readonly Capability[]> = {
  admin: CAPABILITIES,
  editor: ['schema:read', 'content:read', 'content:write'],
  viewer: ['schema:read', 'content:read'],
};

/** Effective capabilities = the role's preset ∪ the extra ones, without duplicates, in vocabulary order. */
export function effectiveCapabilities(role: Role, extra: readonly GrantedCapability[] = []): GrantedCapability[] {
  const granted = new Set<GrantedCapability>([...ROLE_PRESETS[role], ...extra]);
  return [...CAPABILITIES, WILDCARD].filter((capability) => granted.has(capability));
}

export interface CapabilityHolder {
  capabilities: readonly string[];
  isSuperadmin: boolean;
}

/**
 * True iff the holder has every required capability. `*` counts only for a superadmin: held by
 * anyone else it grants nothing. It satisfies capability checks only, never the risk rule.
 */
export function hasCapabilities(holder: CapabilityHolder, required: readonly string[]): boolean {
  if (holder.isSuperadmin && holder.capabilities.includes(WILDCARD)) return true;
  return required.every((capability) => capability !== WILDCARD && holder.capabilities.includes(capability));
}

export function missingCapabilities(holder: CapabilityHolder, required: readonly string[]): string[] {
  if (hasCapabilities(holder, required)) return [];
  return required.filter((capability) => !holder.capabilities.includes(capability) || capability === WILDCARD);
}
