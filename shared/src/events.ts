// Site events: the typed socket.io contract (docs/API.md, Real-time) and the payloads stored in the event log.
// One map, SITE_EVENTS, names every sequenced event and its schema; every other type here derives from it.
import { z } from 'zod';
import { ApprovalJson } from './api/approvals.js';
import { CopilotNotice } from './api/notices.js';

export const ContentChange = z.object({
  /** `trash`: an entry of the trash (`id`): `created` when a collection or field goes there, `deleted` when it is restored from there. */
  kind: z.enum(['collection', 'field', 'item', 'trash']),
  action: z.enum(['created', 'updated', 'deleted']),
  collection: z.string(),
  id: z.string().optional(),
  field: z.string().optional(),
  /** Item events: the item's revision after the change (docs/API.md, "Revisions, trash and undo"). */
  revision: z.number().int().min(1).optional(),
});
export type ContentChange = z.infer<typeof ContentChange>;

const sequenced = { seq: z.number().int().min(1), siteId: z.string() };

/** The body each sequenced event carries before it has a seq (what the outbox owes). */
export const SITE_EVENT_BODIES = {
  'approval-created': z.object({ approval: ApprovalJson }),
  'approval-decided': z.object({ approval: ApprovalJson }),
  'content-changed': ContentChange,
  'copilot-notice': z.object({ notice: CopilotNotice }),
} as const;

export const ApprovalCreatedEvent = z.object({ ...sequenced, ...SITE_EVENT_BODIES['approval-created'].shape });
export type ApprovalCreatedEvent = z.infer<typeof ApprovalCreatedEvent>;
export const ApprovalDecidedEvent = z.object({ ...sequenced, ...SITE_EVENT_BODIES['approval-decided'].shape });
export type ApprovalDecidedEvent = z.infer<typeof ApprovalDecidedEvent>;
export const ContentChangedEvent = z.object({ ...sequenced, ...SITE_EVENT_BODIES['content-changed'].shape });
export type ContentChangedEvent = z.infer<typeof ContentChangedEvent>;
/** A `warn`-tier call ran at once (docs/API.md, "The gate's tiers and limits"). */
export const CopilotNoticeEvent = z.object({ ...sequenced, ...SITE_EVENT_BODIES['copilot-notice'].shape });
export type CopilotNoticeEvent = z.infer<typeof CopilotNoticeEvent>;
export const ResyncRequiredEvent = z.object({ siteId: z.string(), seq: z.number().int().min(0) });
export type ResyncRequiredEvent = z.infer<typeof ResyncRequiredEvent>;

/** The sequenced site events, by name: the one definition server, workers and Studio derive from. */
export const SITE_EVENTS = {
  'approval-created': ApprovalCreatedEvent,
  'approval-decided': ApprovalDecidedEvent,
  'content-changed': ContentChangedEvent,
  'copilot-notice': CopilotNoticeEvent,
} as const;

export type SiteEventName = keyof typeof SITE_EVENTS;
export const SITE_EVENT_NAMES = Object.keys(SITE_EVENTS) as SiteEventName[];
export const SiteEventName = z.enum(SITE_EVENT_NAMES as [SiteEventName, ...SiteEventName[]]);

/** Each sequenced event's payload, by name. */
export type SiteEventPayloads = { [Name in SiteEventName]: z.infer<(typeof SITE_EVENTS)[Name]> };

/** What an owed event carries before it has a seq: the body of one of the events above. */
export type SiteEventBody = { [Name in SiteEventName]: { name: Name; body: z.infer<(typeof SITE_EVENT_BODIES)[Name]> } }[SiteEventName];

/** A site event as stored and delivered: its name and its full payload (with seq and siteId). */
export type SiteEvent = { [Name in SiteEventName]: { name: Name; payload: SiteEventPayloads[Name] } }[SiteEventName];

/**
 * A Copilot turn's progress, to the caller's own sockets only: not a site event (no seq, not replayed).
 * `text` pieces as the model streams them; each tool call, then its result's `status`.
 */
export const CopilotProgressEvent = z.object({
  conversationId: z.string(),
  /** The model step of the turn; absent on `reply`. */
  step: z.number().int().min(1).optional(),
  /** `reply`: the run went on after its approval was settled; `text` is the model's reply (stored in the conversation). */
  kind: z.enum(['text', 'tool-call', 'tool-result', 'reply']),
  text: z.string().optional(),
  skill: z.string().optional(),
  status: z.enum(['executed', 'pending_approval', 'denied']).optional(),
});
export type CopilotProgressEvent = z.infer<typeof CopilotProgressEvent>;

export type ServerToClientEvents = { [Name in SiteEventName]: (event: SiteEventPayloads[Name]) => void } & {
  'resync-required': (event: ResyncRequiredEvent) => void;
  'copilot-progress': (event: CopilotProgressEvent) => void;
};

// biome-ignore lint/complexity/noBannedTypes: the Studio sends nothing over the socket; the map is empty on purpose.
export type ClientToServerEvents = {};

/** The event servers and workers pass site events to every server process with (socket.io `serverSideEmit`). */
export const SITE_EVENT_CHANNEL = 'site-event';

/**
 * socket.io's events between server processes (and from the workers' Redis emitter): a site event for the
 * receiving server's sockets. It crossed a process boundary, so the receiver parses it (`parseSiteEvent`) all the same.
 */
export type InterServerEvents = {
  [SITE_EVENT_CHANNEL]: (event: SiteEvent) => void;
};

export const SocketHandshakeAuth = z.object({
  token: z.string().min(1).optional(),
  siteId: z.string().min(1),
  lastSeq: z.number().int().min(0).optional(),
});
export type SocketHandshakeAuth = z.infer<typeof SocketHandshakeAuth>;

/** Parses a site event as it crosses between processes (server ↔ server, worker → server). */
export function parseSiteEvent(raw: unknown): SiteEvent | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { name, payload } = raw as { name?: unknown; payload?: unknown };
  if (typeof name !== 'string' || !Object.hasOwn(SITE_EVENTS, name)) return undefined;
  const parsed = SITE_EVENTS[name as SiteEventName].safeParse(payload);
  return parsed.success ? ({ name, payload: parsed.data } as SiteEvent) : undefined;
}
