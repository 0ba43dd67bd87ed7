// The socket's sequenced site events (docs/API.md, Real-time), keyed by name to the shared schemas that parse them.
import {
  type ApprovalCreatedEvent,
  type ApprovalDecidedEvent,
  type ContentChangedEvent,
  SITE_EVENT_NAMES,
  SITE_EVENTS,
  type SiteEventName,
  type SiteEventPayloads,
} from '@lumibase/shared';

export { CopilotProgressEvent, ResyncRequiredEvent } from '@lumibase/shared';
export type { ApprovalCreatedEvent, ApprovalDecidedEvent, ContentChangedEvent, SiteEventName, SiteEventPayloads };
export { SITE_EVENT_NAMES };

/** The sequenced site events, applied in `seq` order. */
export const SITE_EVENT_SCHEMAS = SITE_EVENTS;

/** One sequenced event as the orderer holds it: its name, its seq, and the payload (undefined when it failed to parse). */
export interface SequencedEvent {
  type: SiteEventName;
  seq: number;
  payload: SiteEventPayloads[SiteEventName] | undefined;
}
