// The socket's sequenced site events (API.md, Real-time), keyed by name to the shared schemas that parse them.
import {
  ApprovalCreatedEvent,
  ApprovalDecidedEvent,
  ContentChangedEvent,
  SITE_EVENT_NAMES,
  type ServerToClientEvents,
  type SiteEventName,
} from '@lumibase/shared';

export { ResyncRequiredEvent } from '@lumibase/shared';
export type { ApprovalCreatedEvent, ApprovalDecidedEvent, ContentChangedEvent, SiteEventName };
export { SITE_EVENT_NAMES };

/** The sequenced site events, applied in `seq` order. */
export const SITE_EVENT_SCHEMAS = {
  'content-changed': ContentChangedEvent,
  'approval-created': ApprovalCreatedEvent,
  'approval-decided': ApprovalDecidedEvent,
} as const satisfies Record<SiteEventName, unknown>;

/** Each sequenced event's payload, by name (the shared socket contract's parameter types). */
export type SiteEventPayloads = { [Name in SiteEventName]: Parameters<ServerToClientEvents[Name]>[0] };

/** One sequenced event as the orderer holds it: its name, its seq, and the payload (undefined when it failed to parse). */
export interface SequencedEvent {
  type: SiteEventName;
  seq: number;
  payload: SiteEventPayloads[SiteEventName] | undefined;
}
