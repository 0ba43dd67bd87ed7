// The current site's copilot-notices: the Approvals page's "Recent Copilot actions" and the live toast with Undo.
import type { CopilotNotice, CopilotNoticeEvent, UndoRef } from '@lumibase/shared';

export interface NoticesApi {
  ai: { notices: { list(): Promise<{ data: CopilotNotice[] }> } };
  items: { restore(undo: UndoRef): Promise<unknown> };
}

export type UndoState = 'undoing' | 'undone' | 'failed';

export class NoticesState {
  /** Newest first. */
  list = $state<CopilotNotice[]>([]);
  /** Notices that arrived live and are still shown as toasts. */
  fresh = $state<CopilotNotice[]>([]);
  undo = $state<Record<string, UndoState>>({});
  error = $state<string | undefined>(undefined);

  constructor(
    private readonly api: NoticesApi,
    readonly siteId: string,
  ) {}

  async load(): Promise<void> {
    try {
      const { data } = await this.api.ai.notices.list();
      this.list = [...this.list.filter((notice) => !data.some((loaded) => loaded.id === notice.id)), ...data]
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
        .slice(0, 50);
      this.error = undefined;
    } catch (error) {
      this.error = error instanceof Error ? error.message : 'Could not load the recent Copilot actions';
    }
  }

  handle(event: CopilotNoticeEvent): void {
    const { notice } = event;
    if (this.list.some((known) => known.id === notice.id)) return;
    this.list = [notice, ...this.list].slice(0, 50);
    this.fresh = [...this.fresh.slice(-2), notice];
  }

  dismiss(id: string): void {
    this.fresh = this.fresh.filter((notice) => notice.id !== id);
  }

  /** Restores the revision the notice names: the item is as it was before the Copilot's change. */
  async undoNotice(notice: CopilotNotice): Promise<void> {
    if (!notice.undo || this.undo[notice.id] === 'undoing' || this.undo[notice.id] === 'undone') return;
    this.undo = { ...this.undo, [notice.id]: 'undoing' };
    try {
      await this.api.items.restore(notice.undo);
      this.undo = { ...this.undo, [notice.id]: 'undone' };
    } catch {
      this.undo = { ...this.undo, [notice.id]: 'failed' };
    }
  }
}
