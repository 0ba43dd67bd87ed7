// What one skill module holds (skills/<kebab-name>.ts): how the skill runs, what it would change, and how it plays in a
// plan. What the model, the Studio and the echo planner read of a skill is on its definition in shared/ instead.
import type { ApprovalImpact, ApprovalTarget, SkillArguments, SkillName, TrashKind } from '@lumibase/shared';
import type { SimulatedSite } from './simulated-site.js';
import type { SiteView } from './site-view.js';
import type { ExecutorFactory } from './skill-dependencies.js';

/** What a call would change and how much: the target is taken at creation and re-checked; the impact is shown to the approver. */
export interface TargetPreview {
  target?: ApprovalTarget;
  impact?: ApprovalImpact;
}

/** What inspect reads: the site through a small interface (the stores now; a simulated site can stand in). */
export interface InspectContext {
  site: SiteView;
  /** How long a deleted collection or field stays restorable (shown on the card); left out when unknown. */
  restorableDays?: number;
}

export interface SkillModule<Name extends SkillName> {
  /** The executor over the CMS services; idempotent under its operation id. */
  readonly execute: ExecutorFactory<Name>;
  /** The call's target and impact as the site stands now ({} for a skill that changes nothing an approver weighs). */
  readonly inspect: (args: SkillArguments<Name>, context: InspectContext) => Promise<TargetPreview>;
  /** After a plan step ran: why its effect is not there (undefined when it is). Absent: nothing to check. */
  readonly verify?: (args: SkillArguments<Name>, result: unknown, site: SiteView) => Promise<string | undefined>;
  /**
   * What undoes a done plan step (approvals/undo-step.ts performs it); undefined when there is nothing to undo. Absent:
   * the step cannot be undone, so a plan may hold it only as its last step (dry-run.ts).
   */
  readonly undo?: (args: SkillArguments<Name>, result: unknown) => StepUndo | undefined;
  /** As a plan step, on the site as the earlier steps leave it (dry-run.ts): why it cannot succeed there. Absent: nothing refuses it. */
  readonly refuse?: (args: SkillArguments<Name>, site: SimulatedSite) => Promise<string | undefined>;
  /** Its effect on that site, as the later steps will find it. Absent: it changes nothing a later step reads. */
  readonly simulate?: (args: SkillArguments<Name>, site: SimulatedSite, step: number) => Promise<void>;
  /** Its clause in the plan's summary. Absent: the inspect's summary followed by `createdBy` (nothing without a summary). */
  readonly describeStep?: (args: SkillArguments<Name>, sentence: StepSentence) => string | undefined;
  /**
   * What it creates that a later step may be bound to by name: a later step's target on that collection has no id yet
   * when the plan is made (approvals/run-plan.ts). Absent: it creates no collection.
   */
  readonly creates?: (args: SkillArguments<Name>) => { collection?: string };
}

/** What a plan step's sentence is made from (dry-run.ts). */
export interface StepSentence {
  /** The inspect's summary of the step on the simulated site, when it gives one. */
  inspected: string | undefined;
  /** " (created by step 2)" when an earlier step of the plan creates the step's collection, else "". */
  createdBy: string;
}

/**
 * How a done plan step is undone (docs/API.md, "Runs and plans"): what it created is removed for good (no trash entry, no
 * history); what it updated or deleted is put back from the item revisions (the revision before the step's own) and
 * the trash (the newest entry of that deletion).
 */
export type StepUndo =
  | { kind: 'discard-collection'; name: string }
  | { kind: 'discard-field'; collection: string; field: string }
  | { kind: 'discard-item'; collection: string; id: string }
  | { kind: 'restore-revision'; collection: string; id: string }
  | { kind: 'restore-trash'; trashKind: TrashKind; collection: string; field?: string; itemId?: string };

/** The inspect of a skill that is never gated: no target, no impact. */
export const nothingToInspect = async (): Promise<TargetPreview> => ({});
