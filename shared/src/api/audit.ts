// GET /ai/audit: the site's audit entries, newest first.
import { z } from 'zod';
import { auditEntryShape } from '../approvals.js';
import { ListMeta, ListQuery } from './envelope.js';

export const AuditEntryJson = z.object(auditEntryShape(z.iso.datetime()));
export type AuditEntryJson = z.infer<typeof AuditEntryJson>;

export const ListAuditQuery = ListQuery;
export type ListAuditQuery = z.infer<typeof ListAuditQuery>;

export const ListAuditResponse = z.object({ data: z.array(AuditEntryJson), meta: ListMeta });
export type ListAuditResponse = z.infer<typeof ListAuditResponse>;
