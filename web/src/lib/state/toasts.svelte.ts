// Short notices in the corner: a write succeeded, someone else changed what you are looking at.
export type ToastTone = 'info' | 'success' | 'danger';

export interface Toast {
  id: number;
  tone: ToastTone;
  title: string;
  message?: string | undefined;
  /** Where to go about it (a pending approval, say). */
  link?: { href: string; label: string } | undefined;
}

export class ToastState {
  list = $state<Toast[]>([]);
  #nextId = 1;

  show({
    tone = 'info',
    title,
    message,
    link,
    timeoutMs = 4500,
  }: {
    tone?: ToastTone;
    title: string;
    message?: string | undefined;
    link?: { href: string; label: string } | undefined;
    timeoutMs?: number;
  }): number {
    const id = this.#nextId++;
    this.list = [...this.list.slice(-3), { id, tone, title, message, link }];
    if (timeoutMs > 0) setTimeout(() => this.dismiss(id), timeoutMs);
    return id;
  }

  dismiss(id: number): void {
    this.list = this.list.filter((toast) => toast.id !== id);
  }
}
