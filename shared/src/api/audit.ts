// GET /ai/audit: the site's audit entries, newest first.
import { z } from 'zod';
import { AuditEntry } from '../approvals.js';
import { ListMeta, ListQuery } from './envelope.js';

/** The wire shape is the entry itself: its dates are ISO strings everywhere. */
export const AuditEntryJson = AuditEntry;
export type AuditEntryJson = AuditEntry;

export const ListAuditQuery = ListQuery;
export type ListAuditQuery = z.infer<typeof ListAuditQuery>;

export const ListAuditResponse = z.object({ data: z.array(AuditEntryJson), meta: ListMeta });
export type ListAuditResponse = z.infer<typeof ListAuditResponse>;
