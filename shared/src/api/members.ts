// Membership contracts: POST /members, PUT/DELETE /members/:userId, GET /members (site-scoped).
import { z } from 'zod';
import { GrantedCapability, Role } from '../capabilities.js';
import { Email, UserView } from './auth.js';
import { ListMeta } from './envelope.js';

export const PutMemberRequest = z.strictObject({
  role: Role,
  /** Added to the role's preset. `*` is accepted by the schema and refused for anyone but a superadmin. */
  capabilities: z.array(GrantedCapability).max(20).optional(),
});
export type PutMemberRequest = z.infer<typeof PutMemberRequest>;

/**
 * POST /members: adds someone by email in one step. When no account has that email one is created
 * (then `name` is required) and its generated password is answered this once.
 */
export const AddMemberRequest = z.strictObject({
  email: Email,
  name: z.string().trim().min(1).max(200).optional(),
  role: Role,
  capabilities: z.array(GrantedCapability).max(20).optional(),
});
export type AddMemberRequest = z.infer<typeof AddMemberRequest>;

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

export const AddMemberResponse = z.object({
  data: z.object({
    member: MemberView,
    /** Only when the account was created by this request: shown once, never stored in clear. */
    password: z.string().optional(),
  }),
});
export type AddMemberResponse = z.infer<typeof AddMemberResponse>;
