// Site events: the typed socket.io contract (API.md, Real-time) and the payloads stored in the event log.
import { z } from 'zod';
import { ApprovalJson } from './api/approvals.js';

export const SITE_EVENT_NAMES = ['approval-created', 'approval-decided', 'content-changed'] as const;
export const SiteEventName = z.enum(SITE_EVENT_NAMES);
export type SiteEventName = z.infer<typeof SiteEventName>;

export const ContentChange = z.object({
  kind: z.enum(['collection', 'field', 'item']),
  action: z.enum(['created', 'updated', 'deleted']),
  collection: z.string(),
  id: z.string().optional(),
  field: z.string().optional(),
});
export type ContentChange = z.infer<typeof ContentChange>;

const sequenced = { seq: z.number().int().min(1), siteId: z.string() };

export const ApprovalCreatedEvent = z.object({ ...sequenced, approval: ApprovalJson });
export type ApprovalCreatedEvent = z.infer<typeof ApprovalCreatedEvent>;
export const ApprovalDecidedEvent = z.object({ ...sequenced, approval: ApprovalJson });
export type ApprovalDecidedEvent = z.infer<typeof ApprovalDecidedEvent>;
export const ContentChangedEvent = z.object({ ...sequenced, ...ContentChange.shape });
export type ContentChangedEvent = z.infer<typeof ContentChangedEvent>;
export const ResyncRequiredEvent = z.object({ siteId: z.string(), seq: z.number().int().min(0) });
export type ResyncRequiredEvent = z.infer<typeof ResyncRequiredEvent>;

/** What an owed event carries before it has a seq: the body of one of the events above. */
export type SiteEventBody =
  | { name: 'approval-created'; body: { approval: ApprovalJson } }
  | { name: 'approval-decided'; body: { approval: ApprovalJson } }
  | { name: 'content-changed'; body: ContentChange };

/** A site event as stored and delivered: its name and its full payload (with seq and siteId). */
export type SiteEvent =
  | { name: 'approval-created'; payload: ApprovalCreatedEvent }
  | { name: 'approval-decided'; payload: ApprovalDecidedEvent }
  | { name: 'content-changed'; payload: ContentChangedEvent };

export interface ServerToClientEvents {
  'approval-created': (event: ApprovalCreatedEvent) => void;
  'approval-decided': (event: ApprovalDecidedEvent) => void;
  'content-changed': (event: ContentChangedEvent) => void;
  'resync-required': (event: ResyncRequiredEvent) => void;
}

// biome-ignore lint/complexity/noBannedTypes: the Studio sends nothing over the socket; the map is empty on purpose.
export type ClientToServerEvents = {};

export const SocketHandshakeAuth = z.object({
  token: z.string().min(1).optional(),
  siteId: z.string().min(1),
  lastSeq: z.number().int().min(0).optional(),
});
export type SocketHandshakeAuth = z.infer<typeof SocketHandshakeAuth>;

/** A site event as it crosses between processes (server ↔ server, worker → server): parsed on arrival. */
export const SiteEventSchema = z.discriminatedUnion('name', [
  z.object({ name: z.literal('approval-created'), payload: ApprovalCreatedEvent }),
  z.object({ name: z.literal('approval-decided'), payload: ApprovalDecidedEvent }),
  z.object({ name: z.literal('content-changed'), payload: ContentChangedEvent }),
]);
