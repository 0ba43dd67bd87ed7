// The toasts that tell an approver about new requests: none while the Approvals page is open (the cards arrive there
// live), and never a pile: a request arriving while another's toast shows turns it into one "N requests wait" toast.
import type { ToastState } from './toasts.svelte.js';

export interface RequestAlert {
  approvalId: string;
  title: string;
  message?: string | undefined;
  href: string;
}

export const APPROVALS_HREF = '/settings/ai-approvals';

export class RequestToasts {
  /** The requests the showing toast announces (one, or several collapsed), oldest first. */
  readonly #showing = new Map<string, RequestAlert>();
  #toast: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #quiet = false;

  readonly #toasts: Pick<ToastState, 'show' | 'dismiss' | 'list'>;
  readonly #timeoutMs: number;

  constructor(toasts: Pick<ToastState, 'show' | 'dismiss' | 'list'>, timeoutMs: number) {
    this.#toasts = toasts;
    this.#timeoutMs = timeoutMs;
  }

  /** True while the Approvals page is open: no request toasts, and the one showing goes. */
  get quiet(): boolean {
    return this.#quiet;
  }

  set quiet(quiet: boolean) {
    this.#quiet = quiet;
    if (quiet) this.#clear();
  }

  announce(alert: RequestAlert): void {
    if (this.#quiet) return;
    // Dismissed by hand (or timed out): what it announced is no longer showing.
    if (this.#toast !== undefined && !this.#toasts.list.some((toast) => toast.id === this.#toast)) this.#clear();
    this.#showing.set(alert.approvalId, alert);
    this.#show();
  }

  /** The request was decided (here or elsewhere): it leaves the toast, and the toast goes once it announces nothing. */
  settle(approvalId: string): void {
    if (!this.#showing.delete(approvalId)) return;
    if (this.#showing.size === 0) this.#clear();
    else this.#show();
  }

  #show(): void {
    if (this.#toast !== undefined) this.#toasts.dismiss(this.#toast);
    const alerts = [...this.#showing.values()];
    const newest = alerts[alerts.length - 1];
    if (!newest) return;
    this.#toast =
      alerts.length === 1
        ? this.#toasts.show({
            tone: 'info',
            title: newest.title,
            message: newest.message,
            link: { href: newest.href, label: 'Review request' },
            timeoutMs: 0,
          })
        : this.#toasts.show({
            tone: 'info',
            title: `${alerts.length} requests wait for a decision`,
            message: `Newest: ${newest.title}`,
            link: { href: APPROVALS_HREF, label: 'Review requests' },
            timeoutMs: 0,
          });
    // One timer for the toast as it stands now: a new request gives the approver the full time again.
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#clear(), this.#timeoutMs);
  }

  #clear(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#toast !== undefined) this.#toasts.dismiss(this.#toast);
    this.#toast = undefined;
    this.#showing.clear();
  }
}
