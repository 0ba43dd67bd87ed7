// The Studio's object graph for one tab (API client → session → site → live → content), shared through Svelte context.
import { isPending } from '@lumibase/shared';
import { NoticesState } from './copilot-notices.svelte.js';
import { getContext, setContext } from 'svelte';
import { type Api, createApi, describeRetry } from '../api/index.js';
import { truncate } from '../format/values.js';
import { requestWords } from './approval-notices.js';
import type { ApprovalCreatedEvent } from '../realtime/events.js';
import type { SocketFactory } from '../realtime/realtime-client.js';
import { type ApprovalAlerts, browserNotifications } from './approval-alerts.js';
import { ApprovalsState } from './approvals.svelte.js';
import { ContentState } from './content.svelte.js';
import { CopilotState } from './copilot.svelte.js';
import { LiveState } from './live.svelte.js';
import { RequestToasts } from './request-toasts.js';
import { SessionState } from './session.svelte.js';
import { type KeyValueStorage, SiteState } from './site.svelte.js';
import { ToastState } from './toasts.svelte.js';

export interface StudioOptions {
  fetch?: typeof globalThis.fetch;
  storage?: KeyValueStorage | undefined;
  createSocket?: SocketFactory;
  /** Desktop notifications for approvers (the browser's Notification API by default). */
  notifications?: ApprovalAlerts;
}

const REQUEST_TOAST_MS = 10_000;

export class Studio {
  readonly api: Api;
  readonly session: SessionState;
  readonly site: SiteState;
  readonly live: LiveState;
  readonly toasts = new ToastState();
  readonly notifications: ApprovalAlerts;
  /** The toasts announcing approval requests (quiet while the Approvals page is open; several collapse into one). */
  readonly requestToasts = new RequestToasts(this.toasts, REQUEST_TOAST_MS);

  constructor({ fetch, storage, createSocket, notifications }: StudioOptions = {}) {
    this.notifications = notifications ?? browserNotifications();
    this.api = createApi({
      ...(fetch ? { fetch } : {}),
      onUnauthenticated: () => this.session.expire(),
      // A write retried after a network error or a 503 (same Idempotency-Key): say so.
      onRetry: (notice) => this.toasts.show(describeRetry(notice)),
    });
    this.session = new SessionState(this.api);
    this.site = new SiteState(this.session, storage);
    this.live = new LiveState({
      ...(createSocket ? { createSocket } : {}),
      onUnauthenticated: () => this.session.expire(),
      // The pending list's read gives the seq its count is current to: the socket resumes from exactly there.
      currentSeq: async (siteId) => {
        const approvals = this.approvals;
        if (approvals?.siteId !== siteId) return undefined;
        await approvals.load();
        return approvals.seq;
      },
    });
    this.live.on('content-changed', (event) => this.content?.handle(event));
    this.live.on('approval-created', (event) => {
      this.approvals?.handleCreated(event);
      this.#alertApprovers(event);
    });
    this.live.on('approval-decided', (event) => {
      this.approvals?.handleDecided(event);
      // Once decided (here or elsewhere), the request's toast has nothing left to ask.
      if (!isPending(event.approval.status)) this.requestToasts.settle(event.approval.id);
    });
    this.live.on('copilot-notice', (event) => this.notices?.handle(event));
    this.live.onCopilotProgress((event) => this.copilot?.receiveProgress(event));
    this.live.onResync(() => {
      this.content?.resync();
      void this.approvals?.resync();
    });
  }

  /** The current site's content, re-created when the site changes. */
  content: ContentState | undefined = $derived.by(() => {
    const siteId = this.#siteId;
    return siteId ? new ContentState(this.api.site(siteId)) : undefined;
  });

  /** The current site's copilot-notices (calls that ran under the policy's `warn`): toasts with Undo, the recent list. */
  notices: NoticesState | undefined = $derived.by(() => {
    const siteId = this.#siteId;
    return siteId ? new NoticesState(this.api.site(siteId), siteId) : undefined;
  });

  /** The current site's approvals: the pending list and count, and what this tab decides. */
  approvals: ApprovalsState | undefined = $derived.by(() => {
    const siteId = this.#siteId;
    return siteId
      ? new ApprovalsState({
          api: this.api.site(siteId),
          userId: () => this.session.user?.id,
          notify: (toast) => this.toasts.show(toast),
        })
      : undefined;
  });

  /** The Copilot conversation in the current site (memory only: a reload or a site switch starts a new one). */
  copilot: CopilotState | undefined = $derived.by(() => {
    const siteId = this.#siteId;
    if (!siteId) return undefined;
    const api = this.api.site(siteId);
    return new CopilotState({
      chat: (request) => api.ai.chat(request),
      onApprovalRequested: (approvalId) => this.approvals?.watch(approvalId),
      restore: (ref) => api.items.restore(ref),
    });
  });

  /** Approvers hear about each new request made by someone else: a toast with a link, and a desktop notification. */
  #alertApprovers({ approval }: ApprovalCreatedEvent): void {
    if (!this.site.canDecide(approval.skillName) || approval.requestedBy.id === this.session.user?.id) return;
    const href = `/settings/ai-approvals#approval-${approval.id}`;
    const title = `${approval.requestedBy.name || 'An admin'} asks for approval: ${requestWords(approval)}`;
    this.requestToasts.announce({ approvalId: approval.id, title, message: truncate(approval.context.message, 140), href });
    this.notifications.show({ tag: approval.id, title, body: truncate(approval.context.message, 140), href });
  }

  // A primitive: a re-read site list with the same current site does not re-create (and reload) the content.
  #siteId: string | undefined = $derived.by(() => this.site.current?.id);
}

const STUDIO = Symbol('studio');

export function setStudio(studio: Studio): Studio {
  return setContext(STUDIO, studio);
}

export function getStudio(): Studio {
  const studio = getContext<Studio | undefined>(STUDIO);
  if (!studio) throw new Error('getStudio() needs the Studio context (set in the root layout)');
  return studio;
}
