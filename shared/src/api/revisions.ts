// Item revisions and the audit chain's verification (docs/API.md, "Revisions, trash and undo" and the audit).
import { z } from 'zod';
import { ActorRef } from '../approvals.js';
import { ItemData } from './content.js';

export const REVISION_ACTIONS = ['created', 'updated', 'deleted', 'restored'] as const;
export const RevisionAction = z.enum(REVISION_ACTIONS);
export type RevisionAction = z.infer<typeof RevisionAction>;

export const REVISION_VIAS = ['rest', 'copilot', 'approval', 'restore'] as const;
export const RevisionVia = z.enum(REVISION_VIAS);
export type RevisionVia = z.infer<typeof RevisionVia>;

export const ItemRevisionView = z.object({
  revision: z.number().int().min(1),
  action: RevisionAction,
  /** The item's data after the change (for `deleted`: the data it had when deleted). */
  data: ItemData,
  actor: ActorRef,
  via: RevisionVia,
  approvalId: z.string().optional(),
  createdAt: z.iso.datetime(),
});
export type ItemRevisionView = z.infer<typeof ItemRevisionView>;

export const ItemRevisionListResponse = z.object({ data: z.array(ItemRevisionView) });
export type ItemRevisionListResponse = z.infer<typeof ItemRevisionListResponse>;

export const RevisionParam = z.coerce.number().int().min(1);

export const AuditVerification = z.union([
  z.object({ valid: z.literal(true), entries: z.number().int().min(0) }),
  z.object({ valid: z.literal(false), entries: z.number().int().min(0), brokenAt: z.number().int().min(1) }),
]);
export type AuditVerification = z.infer<typeof AuditVerification>;
export const AuditVerificationResponse = z.object({ data: AuditVerification });
