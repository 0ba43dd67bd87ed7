// Sign-in and session contracts: POST /auth/login, GET /auth/me.
import { z } from 'zod';
import { GrantedCapability, Role } from '../capabilities.js';

/** Emails are compared trimmed and lower-cased, so `Ann@X.io ` and `ann@x.io` are one account. */
export const Email = z.string().trim().toLowerCase().pipe(z.email().max(254));
export const Password = z.string().min(8).max(256);

export const LoginRequest = z.strictObject({
  email: Email,
  // Any string up to the limit: a login never says which rule a wrong password breaks.
  password: z.string().min(1).max(256),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const UserView = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  isSuperadmin: z.boolean(),
});
export type UserView = z.infer<typeof UserView>;

/** The role a user acts with in a site: a membership's role, or `superadmin` everywhere. */
export const SiteRole = z.union([Role, z.literal('superadmin')]);
export type SiteRole = z.infer<typeof SiteRole>;

export const SiteAccess = z.object({
  id: z.string(),
  name: z.string(),
  role: SiteRole,
  capabilities: z.array(GrantedCapability),
});
export type SiteAccess = z.infer<typeof SiteAccess>;

export const LoginResponse = z.object({
  data: z.object({
    token: z.string(),
    expiresAt: z.iso.datetime(),
    user: UserView,
    sites: z.array(SiteAccess),
  }),
});
export type LoginResponse = z.infer<typeof LoginResponse>;

/** Which planner reads the Copilot's messages (`echo` takes short commands; the others plain sentences). */
export const CopilotInfo = z.object({ provider: z.string() });
export type CopilotInfo = z.infer<typeof CopilotInfo>;

export const MeResponse = z.object({
  data: z.object({ user: UserView, sites: z.array(SiteAccess), copilot: CopilotInfo.optional() }),
});
export type MeResponse = z.infer<typeof MeResponse>;
