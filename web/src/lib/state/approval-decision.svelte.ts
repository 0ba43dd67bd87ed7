// One approval card's decision in the making: the approver's edit of the arguments (checked as typed, diffed against
// the model's), the typed name a deletion needs, the reason for rejecting, and the decision in flight (property 14:
// nothing else can start while one is, or while the approved skill is executing).
import type { ApprovalDecision, ApprovalJson } from '@lumibase/shared';
import { checkEdit, diffArguments } from '../format/approval-view.js';
import { nameToConfirm } from '../format/skill-call.js';

export type DecideHandler = (decision: ApprovalDecision, reason: string, edited?: Record<string, unknown>) => Promise<void>;

export interface ApprovalDecisionOptions {
  approval: () => ApprovalJson;
  /** Absent: the viewer may not decide this one. Settles when the decision is answered. */
  ondecide: () => DecideHandler | undefined;
  /** Approved from this tab (202): running until the outcome event arrives. */
  executing: () => boolean;
}

export class ApprovalDecisionDraft {
  processing = $state<ApprovalDecision | undefined>(undefined);
  reason = $state('');
  typedName = $state('');
  editing = $state(false);
  draft = $state('');

  readonly #options: ApprovalDecisionOptions;

  constructor(options: ApprovalDecisionOptions) {
    this.#options = options;
  }

  get approval(): ApprovalJson {
    return this.#options.approval();
  }

  readonly check = $derived(this.editing ? checkEdit(this.approval.skillName, this.draft) : undefined);
  readonly changes = $derived(this.check?.ok ? diffArguments(this.approval.arguments, this.check.arguments) : []);
  /** What will run: the approver's edit when it is valid, else the model's arguments. */
  readonly runArguments: Record<string, unknown> = $derived(this.check?.ok ? this.check.arguments : this.approval.arguments);
  /** Deleting a collection is approved only after typing its name (the skill's confirmByName: a misclick cannot undo it). */
  readonly mustType: string | undefined = $derived(nameToConfirm(this.approval.skillName, this.runArguments));
  readonly nameTyped = $derived(this.mustType === undefined || this.typedName.trim() === this.mustType);
  readonly argumentsJson = $derived(JSON.stringify(this.approval.arguments, null, 2));

  /** A decision is in flight, or the approved skill is executing: nothing else can start. */
  get busy(): boolean {
    return this.processing !== undefined || this.#options.executing();
  }

  readonly decide = async (decision: ApprovalDecision): Promise<void> => {
    const ondecide = this.#options.ondecide();
    if (!ondecide || this.busy || (decision === 'approved' && !this.nameTyped)) return;
    const check = this.check;
    const edited = decision === 'approved' && this.editing && check?.ok && this.changes.length > 0 ? check.arguments : undefined;
    if (decision === 'approved' && this.editing && !check?.ok) return;
    this.processing = decision;
    try {
      const why = decision === 'rejected' ? this.reason.trim() : '';
      await (edited ? ondecide(decision, why, edited) : ondecide(decision, why));
      this.editing = false;
    } finally {
      this.processing = undefined;
    }
  };

  readonly startEditing = (): void => {
    this.draft = this.argumentsJson;
    this.editing = true;
  };

  readonly cancelEditing = (): void => {
    this.editing = false;
  };
}
