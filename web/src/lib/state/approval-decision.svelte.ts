// One approval card's decision in the making: the approver's edit of the arguments (a form generated from the skill's
// schema, checked as typed, diffed against the arguments shown, saved as a new revision before anyone may approve it),
// the typed name a deletion needs, the reason for rejecting, and the decision in flight (property 14: nothing else can
// start while one is, or while the approved skill is executing).
import type { ApprovalDecision, ApprovalJson } from '@lumibase/shared';
import type { ApprovalEdit } from '../api/index.js';
import { argumentInputs, checkForm, describeChanges, type FormValues, formValues, placeDetails } from '../forms/argument-form.js';
import { isPlan } from '../format/plan-steps.js';
import { nameToConfirm } from '../format/skill-call.js';
import type { EditOutcome } from './approvals.svelte.js';
import { PlanEditDraft } from './plan-edit.svelte.js';

export type DecideHandler = (decision: ApprovalDecision, reason: string) => Promise<void>;
/** Saves edited arguments (or a plan's steps) as a new revision (PATCH): the card then shows that revision, its impact included. */
export type EditHandler = (edit: ApprovalEdit) => Promise<EditOutcome>;

export interface ApprovalDecisionOptions {
  approval: () => ApprovalJson;
  /** Absent: the viewer may not decide this one. Settles when the decision is answered. */
  ondecide: () => DecideHandler | undefined;
  /** Absent: this card cannot edit (Edit is not offered). */
  onedit?: () => EditHandler | undefined;
  /** Approved from this tab (202): running until the outcome event arrives. */
  executing: () => boolean;
}

/** What the card says about the edit it just saved or could not save. */
export interface EditNote {
  tone: 'success' | 'danger';
  text: string;
}

export class ApprovalDecisionDraft {
  processing = $state<ApprovalDecision | 'saving' | undefined>(undefined);
  reason = $state('');
  typedName = $state('');
  editing = $state(false);
  /** The form's values while editing. */
  values = $state<FormValues>({});
  /** The server's refusal of the last save, placed at the inputs (in words). */
  serverErrors = $state<{ errors: Record<string, string>; general: string[] } | undefined>(undefined);
  editNote = $state<EditNote | undefined>(undefined);
  /** A plan's edit, step by step (state/plan-edit.svelte.ts). */
  readonly plan = new PlanEditDraft();

  readonly #options: ApprovalDecisionOptions;

  constructor(options: ApprovalDecisionOptions) {
    this.#options = options;
  }

  get approval(): ApprovalJson {
    return this.#options.approval();
  }

  /** Several steps: shown, edited and approved as one plan. */
  readonly isPlan = $derived(isPlan(this.approval));

  /** The form's inputs, from the skill's argument schema. */
  readonly inputs = $derived(argumentInputs(this.approval.skillName));
  readonly check = $derived(this.editing && !this.isPlan ? checkForm(this.approval.skillName, this.inputs, this.values) : undefined);
  /** What the edit changes against the arguments shown, value by value. */
  readonly changes = $derived(this.check?.ok ? describeChanges(this.inputs, this.approval.arguments, this.check.arguments) : []);
  /** Errors to show at each input: the server's from the last save, else the form's own. */
  readonly errors: Record<string, string> = $derived(this.serverErrors?.errors ?? (this.check && !this.check.ok ? this.check.errors : {}));
  readonly generalErrors: string[] = $derived(this.serverErrors?.general ?? (this.check && !this.check.ok ? this.check.general : []));
  /** What the model proposed against what the approval now runs, when someone edited it. */
  readonly edits = $derived(
    this.approval.originalArguments ? describeChanges(this.inputs, this.approval.originalArguments, this.approval.arguments) : [],
  );
  /** Deleting a collection is approved only after typing its name (the skill's confirmByName: a misclick cannot undo it). */
  readonly mustType: string | undefined = $derived(
    this.isPlan
      ? this.approval.steps.map((step) => nameToConfirm(step.skillName, step.arguments)).find((name) => name !== undefined)
      : nameToConfirm(this.approval.skillName, this.approval.arguments),
  );
  readonly nameTyped = $derived(this.mustType === undefined || this.typedName.trim() === this.mustType);
  readonly argumentsJson = $derived(JSON.stringify(this.approval.arguments, null, 2));
  readonly canSave = $derived(this.editing && (this.isPlan ? this.plan.canSave : this.check?.ok === true && this.changes.length > 0));

  /** This card may edit: it has a save handler and a form for the skill (a plan's steps can always be removed). */
  get canEdit(): boolean {
    return this.#options.onedit?.() !== undefined && (this.isPlan || this.inputs.length > 0);
  }

  /** A decision or a save is in flight, or the approved skill is executing: nothing else can start. */
  get busy(): boolean {
    return this.processing !== undefined || this.#options.executing();
  }

  readonly decide = async (decision: ApprovalDecision): Promise<void> => {
    const ondecide = this.#options.ondecide();
    if (!ondecide || this.busy || this.editing || (decision === 'approved' && !this.nameTyped)) return;
    this.processing = decision;
    try {
      await ondecide(decision, decision === 'rejected' ? this.reason.trim() : '');
    } finally {
      this.processing = undefined;
    }
  };

  /** Saves the edit as a new revision; on success the card leaves Edit mode and shows that revision's impact. */
  readonly save = async (): Promise<void> => {
    const onedit = this.#options.onedit?.();
    const check = this.check;
    if (!onedit || this.busy || !this.canSave) return;
    if (!this.isPlan && !check?.ok) return;
    this.processing = 'saving';
    try {
      const outcome = await onedit(this.isPlan ? { steps: this.plan.body() } : { arguments: check?.ok ? check.arguments : {} });
      if (outcome.ok) {
        this.editing = false;
        this.serverErrors = undefined;
        this.editNote = {
          tone: 'success',
          text: 'Edit saved. Nothing has run: check what it will do now, then approve it or ask someone else to.',
        };
      } else if (outcome.status === 400 && this.isPlan) {
        this.plan.placeDetails(outcome.details, outcome.message);
      } else if (outcome.status === 400) {
        this.serverErrors = placeDetails(this.inputs, outcome.details);
        if (this.serverErrors.general.length === 0 && Object.keys(this.serverErrors.errors).length === 0)
          this.serverErrors.general.push(outcome.message);
      } else {
        this.editing = false;
        this.editNote = { tone: 'danger', text: `The edit was not saved: ${outcome.message}` };
      }
    } finally {
      this.processing = undefined;
    }
  };

  /** Any change to the form clears the server's refusal of the previous values. */
  readonly setValue = (path: string, value: string | boolean): void => {
    this.values = { ...this.values, [path]: value };
    this.serverErrors = undefined;
  };

  readonly startEditing = (): void => {
    if (this.isPlan) this.plan.start(this.approval.steps);
    this.values = formValues(this.inputs, this.approval.arguments);
    this.serverErrors = undefined;
    this.editNote = undefined;
    this.editing = true;
  };

  readonly cancelEditing = (): void => {
    this.editing = false;
    this.serverErrors = undefined;
  };
}
