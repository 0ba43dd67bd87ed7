// The Approvals dashboard (settings/ai-approvals): the status tab held in the URL, the settled tabs' lists (read on
// demand, again when an approval changes state), the site's Copilot policy, desktop notifications, and for each card
// whether this viewer may decide it.
import {
  type ApprovalDecision,
  type ApprovalJson,
  type ApprovalStatus,
  type ListApprovalsResponse,
  isOwnRequest,
  isPending,
  refusesSelfApproval,
} from '@lumibase/shared';
import { untrack } from 'svelte';
import type { SiteApi } from '../api/index.js';
import { capabilityWords } from '../format/copilot-words.js';
import type { AlertPermission, ApprovalAlerts } from './approval-alerts.js';
import type { EditHandler } from './approval-decision.svelte.js';
import type { ApprovalsState } from './approvals.svelte.js';
import { liveResource, reloading } from './live-resource.svelte.js';
import type { Address, StudioParts } from './page-context.js';
import { Resource } from './resource.svelte.js';

type Policy = Awaited<ReturnType<SiteApi['ai']['policy']['get']>>;

export const APPROVAL_TABS = [
  { status: 'pending', label: 'Pending' },
  { status: 'executing', label: 'Executing' },
  { status: 'approved', label: 'Approved' },
  { status: 'rejected', label: 'Rejected' },
  { status: 'expired', label: 'Expired' },
] as const satisfies readonly { status: ApprovalStatus; label: string }[];

export interface ApprovalsPageOptions extends Address {
  studio: Pick<StudioParts, 'live'> & {
    readonly approvals: ApprovalsState | undefined;
    readonly site: StudioParts['site'] & { missingToDecide(skillName: string): string[] };
    readonly session: { readonly user: { id: string } | undefined };
    readonly notifications: Pick<ApprovalAlerts, 'permission' | 'request'>;
  };
}

export class ApprovalsPage {
  permission = $state<AlertPermission>('default');

  readonly #options: ApprovalsPageOptions;

  constructor(options: ApprovalsPageOptions) {
    this.#options = options;
    this.permission = options.studio.notifications.permission();
    $effect(() => {
      const decided = this.decided;
      if (decided) return liveResource(this.#studio.live, reloading(decided, ['approval-decided']));
    });
    $effect(() => {
      const policy = this.policy;
      if (policy) untrack(() => void policy.load());
    });
  }

  get approvals(): ApprovalsState | undefined {
    return this.#studio.approvals;
  }

  /** Approvers in this site (for desktop notifications); each card applies the full decider rule. */
  get canDecide(): boolean {
    return this.#studio.site.can('approvals:decide');
  }

  readonly tab: ApprovalStatus = $derived.by(() => {
    const status = this.#options.url().searchParams.get('status');
    return APPROVAL_TABS.find((tab) => tab.status === status)?.status ?? 'pending';
  });

  /** The other tabs read their status on demand, and again when an approval changes state. */
  readonly decided: Resource<ListApprovalsResponse> | undefined = $derived.by(() => {
    const api = this.approvals?.api;
    const status = this.tab;
    return api && !isPending(status) ? new Resource(() => api.ai.approvals.list({ status })) : undefined;
  });

  /** The site's Copilot policy: whether a requester may approve their own request. */
  readonly policy: Resource<Policy> | undefined = $derived.by(() => {
    const api = this.approvals?.api;
    return api ? new Resource(() => api.ai.policy.get()) : undefined;
  });

  /** Why this viewer may reject (withdraw) but not approve, or undefined. */
  cannotApprove(approval: ApprovalJson): string | undefined {
    const selfApproval = this.policy?.value?.selfApproval ?? true;
    if (!refusesSelfApproval(approval, this.#userId, { selfApproval })) return undefined;
    if (isOwnRequest(approval, this.#userId))
      return "You asked for this, and this site's Copilot policy needs someone other than the requester to approve it. You can still withdraw it by rejecting.";
    return "You made the last edit of this request, and this site's Copilot policy needs someone else to approve it. You can still reject it.";
  }

  /** Why this viewer cannot decide an approval (the shared decider rule), or undefined when they can. */
  cannotDecide(approval: ApprovalJson): string | undefined {
    // A plan needs what every one of its steps needs (docs/API.md, "Runs and plans").
    const missing = [...new Set(approval.steps.flatMap((step) => this.#studio.site.missingToDecide(step.skillName)))];
    if (missing.includes('approvals:decide')) return 'Deciding needs someone who can decide approvals in this site.';
    const words = missing.map((capability) => lowerFirst(capabilityWords(capability)));
    return missing.length > 0 ? `Deciding on this also needs someone who ${words.join(' and ')}.` : undefined;
  }

  /** The viewer asked for this one. */
  mine(approval: ApprovalJson): boolean {
    return approval.requestedBy.id === this.#userId;
  }

  /** The card's decide handler: settles once the decision is answered. */
  decide(approval: ApprovalJson) {
    return (decision: ApprovalDecision, reason: string) => this.approvals?.decide(approval.id, decision, reason) ?? Promise.resolve();
  }

  /** The card's edit handler: saves the edited arguments (or steps) as a new revision of the one shown. */
  edit(approval: ApprovalJson): EditHandler {
    return (edit) =>
      this.approvals?.edit(approval.id, approval.revision, edit) ??
      Promise.resolve({ ok: false, status: 0, message: 'Approvals are not loaded yet.', details: [] });
  }

  readonly enableNotifications = async (): Promise<void> => {
    this.permission = await this.#studio.notifications.request();
  };

  readonly showTab = (status: ApprovalStatus): void => {
    const url = new URL(this.#options.url());
    if (isPending(status)) url.searchParams.delete('status');
    else url.searchParams.set('status', status);
    url.hash = '';
    void this.#options.goto(url, { replaceState: true, noScroll: true, keepFocus: true });
  };

  get #studio(): ApprovalsPageOptions['studio'] {
    return this.#options.studio;
  }

  get #userId(): string | undefined {
    return this.#studio.session.user?.id;
  }
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
