// Membership contracts: PUT/DELETE /members/:userId, GET /members (site-scoped).
import { z } from 'zod';
import { GrantedCapability, Role } from '../capabilities.js';
import { UserView } from './auth.js';
import { ListMeta } from './envelope.js';

export const PutMemberRequest = z.strictObject({
  role: Role,
  /** Added to the role's preset. `*` is accepted by the schema and refused for anyone but a superadmin. */
  capabilities: z.array(GrantedCapability).max(20).optional(),
});
export type PutMemberRequest = z.infer<typeof PutMemberRequest>;

export const MemberView = z.object({
  userId: z.string(),
  user: UserView,
  role: Role,
  /** Effective capabilities: the role's preset ∪ the extra ones. */
  capabilities: z.array(GrantedCapability),
  /** The extra capabilities as granted, so an editor can show what was added to the preset. */
  extraCapabilities: z.array(GrantedCapability),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type MemberView = z.infer<typeof MemberView>;

export const MemberResponse = z.object({ data: MemberView });
export const MemberListResponse = z.object({ data: z.array(MemberView), meta: ListMeta });
export type MemberListResponse = z.infer<typeof MemberListResponse>;
