// The approvals sync engine: the site's pending list and count (GET /ai/approvals, then kept by approval events in
// seq order), the latest known state of each approval, and the decisions this tab is making. Wording: approval-notices.ts.
import {
  type ApprovalDecision,
  type ApprovalJson,
  type ErrorDetail,
  isApproved,
  isExecuting,
  isPending,
  isRejected,
  isSettled,
  pendingCountDelta,
} from '@lumibase/shared';
import { SvelteMap } from 'svelte/reactivity';
import { type ApiError, type ApprovalEdit, type SiteApi, toApiError } from '../api/index.js';
import type { ApprovalCreatedEvent, ApprovalDecidedEvent } from '../realtime/events.js';
import { isPlan } from '../format/plan-steps.js';
import { isNewer } from './approval-revision.js';
import type { ResourceStatus } from './resource.svelte.js';
import {
  type ApprovalToast,
  type CardNote,
  decidedText,
  failedRunNote,
  lostRaceText,
  staleNote,
  refusalNote,
  settledToast,
} from './approval-notices.js';

/** An edit's answer: the approval at its new revision, or why not (with the server's details for a 400). */
export type EditOutcome = { ok: true; approval: ApprovalJson } | { ok: false; status: number; message: string; details: ErrorDetail[] };

/** This tab's part in a decision: waiting for the decide reply, or (after a 202) for the outcome event. */
export type DecisionPhase = 'deciding' | 'executing';

/** A card that left the list because someone decided it; shown briefly, naming who. */
export interface Departure {
  key: number;
  approvalId: string;
  text: string;
}

export interface ApprovalsStateOptions {
  api: SiteApi;
  /** The signed-in user, to tell "you in another tab" from another admin. */
  userId?: () => string | undefined;
  /** Announces the outcome of this tab's own decisions. */
  notify?: (toast: ApprovalToast) => void;
  departureMs?: number;
}

interface ApprovalEvent {
  type: 'created' | 'decided';
  seq: number;
  approval: ApprovalJson;
}

export class ApprovalsState {
  readonly api: SiteApi;
  status = $state<ResourceStatus>('idle');
  error = $state.raw<ApiError | undefined>(undefined);
  /** The dashboard's cards: pending approvals (and those this tab is deciding), newest first. */
  list = $state.raw<ApprovalJson[]>([]);
  /** The site's pending count: `meta.total`, then kept by events; undefined until first read. */
  total = $state<number | undefined>(undefined);
  departures = $state<Departure[]>([]);

  readonly #options: ApprovalsStateOptions;
  readonly #known = new SvelteMap<string, ApprovalJson>();
  readonly #phases = new SvelteMap<string, DecisionPhase>();
  readonly #notes = new SvelteMap<string, CardNote>();
  readonly #watched = new Set<string>();
  /** The event seq the list and count are current to; events at or before it are already in them. */
  #seq: number | undefined;
  #generation = 0;
  #loading = false;
  /** Events that arrive while a list read is in flight wait here, then apply on top of the read. */
  #queue: ApprovalEvent[] = [];
  #departureKey = 0;

  constructor(options: ApprovalsStateOptions) {
    this.api = options.api;
    this.#options = options;
  }

  get siteId(): string {
    return this.api.siteId;
  }

  get seq(): number | undefined {
    return this.#seq;
  }

  /** The latest known state of an approval (list reads, events, decide replies). */
  approval(id: string): ApprovalJson | undefined {
    return this.#known.get(id);
  }

  phase(id: string): DecisionPhase | undefined {
    return this.#phases.get(id);
  }

  note(id: string): CardNote | undefined {
    return this.#notes.get(id);
  }

  /** Keeps an approval current across a resync even when it is no longer pending (the Copilot's replies). */
  watch(id: string): void {
    this.#watched.add(id);
  }

  /** Reads the pending list, its total and the site's seq; events that arrive meanwhile apply after it. */
  async load(): Promise<void> {
    const generation = ++this.#generation;
    this.#loading = true;
    if (this.status !== 'ready') this.status = 'loading';
    try {
      const { data, meta } = await this.api.ai.approvals.list();
      if (generation !== this.#generation) return;
      this.#seq = meta.seq;
      this.total = meta.total;
      for (const approval of data) this.#known.set(approval.id, approval);
      // Cards this tab is deciding stay until their outcome is known, pending or not.
      const deciding = this.list.filter((approval) => this.#phases.has(approval.id) && !data.some(({ id }) => id === approval.id));
      this.list = newestFirst([...data, ...deciding]);
      this.error = undefined;
      this.status = 'ready';
    } catch (error) {
      if (generation !== this.#generation) return;
      this.error = toApiError(error);
      if (this.status !== 'ready') this.status = 'error';
    } finally {
      if (generation === this.#generation) {
        this.#loading = false;
        for (const event of this.#queue.splice(0)) this.#apply(event);
      }
    }
  }

  /** Events may have been missed (reconnect, resync-required): read again, and re-read watched approvals. */
  async resync(): Promise<void> {
    await this.load();
    const stale = [...this.#watched].filter((id) => {
      const known = this.#known.get(id);
      return !known || !(isSettled(known.status) || this.list.some((approval) => approval.id === id));
    });
    await Promise.all(
      stale.map(async (id) => {
        const fresh = await this.api.ai.approvals.get(id).catch(() => undefined);
        if (fresh) this.#remember(fresh);
      }),
    );
  }

  handleCreated(event: ApprovalCreatedEvent): void {
    this.#receive({ type: 'created', seq: event.seq, approval: event.approval });
  }

  handleDecided(event: ApprovalDecidedEvent): void {
    this.#receive({ type: 'decided', seq: event.seq, approval: event.approval });
  }

  /**
   * Saves an edit of the arguments (or of a plan's steps) as a new revision (nothing runs); the card then shows it, impact included. Never
   * throws: a refusal comes back with the server's details (400) for the form to place; a stale revision (409) shows
   * the current approval with a note, as for a decision.
   */
  async edit(id: string, revision: number, edit: ApprovalEdit): Promise<EditOutcome> {
    try {
      const answer = this.#remember(await this.api.ai.approvals.edit(id, { revision, ...edit }));
      this.#notes.delete(id);
      if (isPending(answer.status)) this.#upsert(answer);
      return { ok: true, approval: answer };
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.status === 409 || apiError.status === 403) await this.#refused(id, apiError);
      return { ok: false, status: apiError.status, message: apiError.message, details: apiError.details };
    }
  }

  /** Approves or rejects; settles with the outcome shown on the card or in a toast (never throws). */
  async decide(id: string, decision: ApprovalDecision, reason?: string): Promise<void> {
    if (this.#phases.has(id)) return;
    // The revision this tab shows: the server answers 409 if the approval changed since.
    const revision = this.#known.get(id)?.revision;
    this.#phases.set(id, 'deciding');
    this.#notes.delete(id);
    try {
      const answer = await this.api.ai.approvals.decide(id, {
        decision,
        reason: reason?.trim() || undefined,
        revision,
      });
      this.#remember(answer);
      this.#settle(this.#known.get(id) ?? answer);
    } catch (error) {
      await this.#refused(id, toApiError(error));
    }
  }

  dismissDeparture(key: number): void {
    this.departures = this.departures.filter((departure) => departure.key !== key);
  }

  #receive(event: ApprovalEvent): void {
    if (this.#loading) this.#queue.push(event);
    else this.#apply(event);
  }

  #apply({ type, seq, approval }: ApprovalEvent): void {
    if (this.#seq !== undefined && seq <= this.#seq) return;
    if (this.#seq !== undefined) this.#seq = seq;
    // Events arrive in seq order, so an event's snapshot is always the newest.
    const previous = this.#known.get(approval.id)?.status;
    this.#known.set(approval.id, approval);
    // The count moves by what changed, as far as this tab knew the approval (an edit or impact refresh keeps it pending).
    const delta = type === 'created' ? 1 : pendingCountDelta(previous, approval.status);
    if (this.total !== undefined) this.total = Math.max(0, this.total + delta);

    const phase = this.#phases.get(approval.id);
    if (isPending(approval.status)) {
      this.#upsert(approval);
      if (type === 'decided' && phase === 'executing') this.#settle(approval);
      return;
    }
    // A plan runs step by step, each step a pushed revision: every viewer's card stays to show it advance.
    if (phase === undefined && isExecuting(approval.status) && isPlan(approval)) {
      this.#upsert(approval);
      return;
    }
    if (phase === 'deciding' || (phase === 'executing' && isExecuting(approval.status))) {
      this.#replace(approval);
      return;
    }
    if (phase === 'executing') {
      this.#settle(approval);
      return;
    }
    if (this.#remove(approval.id)) this.#depart(approval, decidedText(approval, this.#options.userId?.()));
  }

  /** This tab's decision has an answer: the card leaves, waits for the outcome, or says why it is still pending. */
  #settle(approval: ApprovalJson): void {
    const { id } = approval;
    if (isApproved(approval.status) || isRejected(approval.status)) {
      this.#phases.delete(id);
      this.#remove(id);
      const toast = settledToast(approval);
      if (toast) this.#options.notify?.(toast);
    } else if (isExecuting(approval.status)) {
      this.#phases.set(id, 'executing');
      this.#replace(approval);
    } else if (isPending(approval.status)) {
      this.#phases.delete(id);
      this.#upsert(approval);
      if (approval.lastError) this.#notes.set(id, failedRunNote(approval.lastError));
    }
  }

  async #refused(id: string, error: ApiError): Promise<void> {
    this.#phases.delete(id);
    if (error.status === 409) {
      // Not a failure: another admin's decision won the race.
      let latest = this.#known.get(id);
      if (!latest || isPending(latest.status)) {
        const fresh = await this.api.ai.approvals.get(id).catch(() => undefined);
        if (fresh) latest = this.#remember(fresh);
      }
      if (latest && isPending(latest.status)) {
        // It changed since this tab showed it (another admin's try, an impact refresh): show the new one, say so.
        this.#upsert(latest);
        this.#notes.set(id, staleNote(latest));
        return;
      }
      this.#remove(id);
      this.#depart(latest, lostRaceText(latest, this.#options.userId?.()));
      return;
    }
    this.#notes.set(id, refusalNote(error));
  }

  /** Keeps the newer of what is known and a reply read over HTTP (which may race the events). */
  #remember(approval: ApprovalJson): ApprovalJson {
    const known = this.#known.get(approval.id);
    if (known && isNewer(known, approval)) return known;
    this.#known.set(approval.id, approval);
    return approval;
  }

  #depart(approval: ApprovalJson | undefined, text: string): void {
    const key = ++this.#departureKey;
    this.departures = [...this.departures.slice(-4), { key, approvalId: approval?.id ?? '', text }];
    const ms = this.#options.departureMs ?? 8000;
    if (ms > 0) setTimeout(() => this.dismissDeparture(key), ms);
  }

  #upsert(approval: ApprovalJson): void {
    if (this.list.some(({ id }) => id === approval.id)) this.#replace(approval);
    else this.list = newestFirst([approval, ...this.list]);
  }

  #replace(approval: ApprovalJson): void {
    this.list = this.list.map((listed) => (listed.id === approval.id ? approval : listed));
  }

  #remove(id: string): boolean {
    const before = this.list.length;
    this.list = this.list.filter((approval) => approval.id !== id);
    return this.list.length !== before;
  }
}

function newestFirst(approvals: ApprovalJson[]): ApprovalJson[] {
  return approvals.toSorted((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}
