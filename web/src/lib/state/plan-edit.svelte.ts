// An approver's edit of a plan, step by step (docs/API.md, "Runs and plans", Edits): each step's arguments in the form its
// skill's schema generates (opened one step at a time), or the step removed (at least one must remain); saved as one
// PATCH with `steps` — null for a removed step, the arguments for every other (edited or as they are).
import type { ErrorDetail } from '@lumibase/shared';
import type { StepEdit } from '../api/index.js';
import {
  type ArgumentInput,
  argumentInputs,
  checkForm,
  describeChanges,
  type FormCheck,
  type FormValues,
  formValues,
  placeDetails,
} from '../forms/argument-form.js';
import type { PlanStep } from '../format/plan-steps.js';

/** One step of the plan being edited. */
export class StepEditDraft {
  readonly step: PlanStep;
  readonly index: number;
  readonly inputs: ArgumentInput[];
  values = $state<FormValues>({});
  removed = $state(false);
  /** Its form is shown (a step is edited one at a time on a phone, so forms open on demand). */
  open = $state(false);
  serverErrors = $state<{ errors: Record<string, string>; general: string[] } | undefined>(undefined);
  /** The step's arguments as its untouched form reads them (schema defaults filled in): what an edit is compared with. */
  readonly #baseline: Record<string, unknown>;

  constructor(step: PlanStep, index: number) {
    this.step = step;
    this.index = index;
    this.inputs = argumentInputs(step.skillName);
    this.values = formValues(this.inputs, step.arguments);
    const untouched = this.inputs.length > 0 ? checkForm(step.skillName, this.inputs, this.values) : undefined;
    this.#baseline = untouched?.ok ? untouched.arguments : step.arguments;
  }

  /** A step whose skill has no form (an unknown skill) keeps its arguments as they are. */
  get editable(): boolean {
    return this.inputs.length > 0;
  }

  // Derived lazily (arrow bodies), so they read `step` and `inputs` only once the constructor has set them.
  readonly check: FormCheck = $derived.by(() =>
    this.editable ? checkForm(this.step.skillName, this.inputs, this.values) : { ok: true, arguments: this.step.arguments },
  );
  readonly changes = $derived.by(() =>
    this.check.ok && this.editable ? describeChanges(this.inputs, this.#baseline, this.check.arguments) : [],
  );
  readonly errors: Record<string, string> = $derived(this.serverErrors?.errors ?? (this.check.ok ? {} : this.check.errors));
  readonly generalErrors: string[] = $derived(this.serverErrors?.general ?? (this.check.ok ? [] : this.check.general));

  /** What Save sends for this step: null when removed, the step's own arguments when unchanged. */
  get edit(): StepEdit {
    if (this.removed) return null;
    return { arguments: this.check.ok && this.changes.length > 0 ? this.check.arguments : this.step.arguments };
  }

  readonly setValue = (path: string, value: string | boolean): void => {
    this.values = { ...this.values, [path]: value };
    this.serverErrors = undefined;
  };
}

export class PlanEditDraft {
  steps = $state.raw<StepEditDraft[]>([]);
  /** The server's refusals that concern the plan as a whole ("at least one step must remain"). */
  planErrors = $state<string[]>([]);

  start(steps: readonly PlanStep[]): void {
    this.steps = steps.map((step, index) => new StepEditDraft(step, index));
    this.planErrors = [];
  }

  get remaining(): number {
    return this.steps.filter((step) => !step.removed).length;
  }

  /** Something changed (a step removed or its arguments edited), every kept step reads, and one step at least remains. */
  get canSave(): boolean {
    const kept = this.steps.filter((step) => !step.removed);
    return (
      kept.length > 0 &&
      kept.every((step) => step.check.ok) &&
      (kept.length < this.steps.length || kept.some((step) => step.changes.length > 0))
    );
  }

  /** The PATCH body's `steps`: one entry per step of the plan shown. */
  body(): StepEdit[] {
    return this.steps.map((step) => step.edit);
  }

  /** Removing the last remaining step is not offered: a plan keeps one step at least. */
  canRemove(step: StepEditDraft): boolean {
    return step.removed || this.remaining > 1;
  }

  readonly toggleRemoved = (step: StepEditDraft): void => {
    if (!this.canRemove(step)) return;
    step.removed = !step.removed;
    if (step.removed) step.open = false;
    this.planErrors = [];
  };

  /**
   * The server's 400 details placed at the step and input they concern (`steps.2.arguments.field.name` → step 3's
   * "Field › Name"), in words; what names no step is said for the plan. A refused step's form opens.
   */
  placeDetails(details: ErrorDetail[], fallback: string): void {
    const byStep = new Map<number, ErrorDetail[]>();
    const plan: string[] = [];
    for (const detail of details) {
      const match = /^steps\.(\d+)/.exec(detail.path ?? '');
      const step = match ? this.steps[Number(match[1])] : undefined;
      if (step) byStep.set(step.index, [...(byStep.get(step.index) ?? []), detail]);
      else plan.push(planWords(detail.message));
    }
    for (const step of this.steps) {
      const mine = byStep.get(step.index);
      step.serverErrors = mine ? placeDetails(step.inputs, mine) : undefined;
      if (mine) step.open = true;
    }
    this.planErrors = plan.length > 0 || byStep.size > 0 ? plan : [fallback];
  }
}

/** The server's plan-level messages as the card says them. */
function planWords(message: string): string {
  if (message === 'at least one step must remain') return 'Keep at least one step: a plan cannot be empty.';
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return text.endsWith('.') ? text : `${text}.`;
}
