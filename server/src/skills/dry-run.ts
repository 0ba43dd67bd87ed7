// The dry run of a plan (API.md, "Runs and plans"): each step is inspected against the site as the earlier steps will
// leave it. A SimulatedSite is the real site (a SiteView) plus those steps' effects; a step that cannot succeed there
// is refused with why, before anything is stored.
import {
  type ApprovalImpact,
  type ApprovalTarget,
  canonicalJson,
  DomainError,
  type Field,
  findSkill,
  isSkillName,
  quotedSkill,
  type SkillArguments,
  type SkillName,
  writesSite,
} from '@lumibase/shared';
import { validateItemData } from '../services/validate-item-data.js';
import type { ApprovalTargets } from './approval-targets.js';
import { titleOf } from './impact-words.js';
import type { SiteView } from './site-view.js';
import type { InspectContext } from './skill-module.js';
import { SKILL_MODULES } from './skill-modules.js';

type CollectionView = { id: string; name: string; fields: Field[]; plannedBy?: number };

/** The real site plus the effects of a plan's earlier steps: collections and fields created or removed, items created or deleted. */
export class SimulatedSite implements SiteView {
  /** Collections the plan touched, by name: null once a step removes it. */
  private readonly collections = new Map<string, CollectionView | null>();
  /** Which step created a field: `${collection}/${field}`. */
  private readonly fieldSteps = new Map<string, number>();
  private readonly removedItems = new Set<string>();
  /** Items an earlier step updates: how many times, and their data after. */
  private readonly updatedItems = new Map<string, { updates: number; data: Record<string, unknown> }>();
  /** The earlier step that cannot be undone, if any: nothing may follow it (a later failure could not be rolled back). */
  irreversible?: { step: number; skillName: string };

  constructor(private readonly base: SiteView) {}

  async collection(name: string): Promise<CollectionView | null> {
    if (this.collections.has(name)) {
      const planned = this.collections.get(name);
      return planned ? { ...planned, fields: [...planned.fields] } : null;
    }
    const real = await this.base.collection(name);
    return real ? { id: real.id, name, fields: real.fields as Field[] } : null;
  }

  items(collectionId: string, page: { limit: number; offset: number }) {
    if (collectionId.startsWith('planned:')) return Promise.resolve({ records: [], total: 0 });
    return this.base.items(collectionId, page);
  }

  async item(collectionId: string, id: string) {
    if (collectionId.startsWith('planned:') || this.removedItems.has(`${collectionId}/${id}`)) return null;
    const real = await this.base.item(collectionId, id);
    const updated = this.updatedItems.get(`${collectionId}/${id}`);
    // Each update is a revision: a later step bound to the item's revision expects the one the earlier steps leave.
    return real && updated ? { ...real, revision: real.revision + updated.updates, data: updated.data } : real;
  }

  member(userId: string) {
    return this.base.member(userId);
  }

  user(userId: string) {
    return this.base.user(userId);
  }

  /** The step that creates this collection (or this field of it), if one of the plan's does. */
  async createdBy(collection: string, field?: string): Promise<number | undefined> {
    if (field !== undefined) {
      const step = this.fieldSteps.get(`${collection}/${field}`);
      if (step !== undefined) return step;
    }
    return (await this.collection(collection))?.plannedBy;
  }

  /** The step's effect, as the later steps will find the site. */
  async apply(skillName: SkillName, args: Record<string, unknown>, step: number): Promise<void> {
    const name = args.collection as string;
    switch (skillName) {
      case 'createCollection': {
        const { name: created, fields = [] } = args as SkillArguments<'createCollection'>;
        this.collections.set(created, { id: `planned:${step}`, name: created, fields: [...(fields as Field[])], plannedBy: step });
        return;
      }
      case 'deleteCollection':
        this.collections.set(args.name as string, null);
        return;
      case 'createField': {
        const current = await this.collection(name);
        if (!current) return;
        const field = (args as SkillArguments<'createField'>).field as Field;
        this.collections.set(name, { ...current, fields: [...current.fields, field] });
        this.fieldSteps.set(`${name}/${field.name}`, step);
        return;
      }
      case 'updateField': {
        const current = await this.collection(name);
        if (!current) return;
        const { field, changes } = args as SkillArguments<'updateField'>;
        const fields = current.fields.map((candidate) => (candidate.name === field ? ({ ...candidate, ...changes } as Field) : candidate));
        this.collections.set(name, { ...current, fields });
        return;
      }
      case 'deleteField': {
        const current = await this.collection(name);
        if (!current) return;
        this.collections.set(name, { ...current, fields: current.fields.filter((candidate) => candidate.name !== args.field) });
        this.fieldSteps.delete(`${name}/${args.field as string}`);
        return;
      }
      case 'deleteItem': {
        const current = await this.collection(name);
        if (current) this.removedItems.add(`${current.id}/${args.id as string}`);
        return;
      }
      case 'updateItem': {
        const current = await this.collection(name);
        const item = current ? await this.item(current.id, args.id as string) : null;
        if (!current || !item) return;
        const data = { ...item.data };
        for (const [key, value] of Object.entries(args.data as Record<string, unknown>)) {
          if (value === null) delete data[key];
          else data[key] = value;
        }
        const key = `${current.id}/${args.id as string}`;
        this.updatedItems.set(key, { updates: (this.updatedItems.get(key)?.updates ?? 0) + 1, data });
        return;
      }
      default:
        return;
    }
  }
}

export type DryRun = { ok: true; target?: ApprovalTarget; impact?: ApprovalImpact } | { ok: false; reason: string };

/** One step against the simulated site: its target and impact, or why it cannot succeed there. Applies its effect when it can. */
export async function dryRunStep(
  site: SimulatedSite,
  skillName: string,
  args: Record<string, unknown>,
  step: number,
  context: Omit<InspectContext, 'site'> = {},
): Promise<DryRun> {
  if (!isSkillName(skillName)) return { ok: true };
  if (site.irreversible) {
    const { step: earlier, skillName: name } = site.irreversible;
    return {
      ok: false,
      reason: `step ${earlier} (${quotedSkill(name)}) cannot be undone, so nothing may follow it in a plan (make it the last step)`,
    };
  }
  const refusal = await refusalOf(site, skillName, args);
  if (refusal) return { ok: false, reason: refusal };
  const preview = await SKILL_MODULES[skillName].inspect(args as never, { ...context, site });
  const summary = await sentenceOf(site, skillName, args, preview.impact?.summary);
  await site.apply(skillName, args, step);
  // A later step failing undoes the earlier ones; a write without an undo (updateField, deleteUser) can only come last.
  const skill = findSkill(skillName);
  if (!SKILL_MODULES[skillName].undo && skill && writesSite(skill)) site.irreversible = { step, skillName };
  return {
    ok: true,
    ...(preview.target ? { target: preview.target } : {}),
    ...(summary !== undefined ? { impact: { ...preview.impact, summary } } : {}),
  };
}

/** Why the call cannot succeed on the simulated site, or undefined. */
async function refusalOf(site: SimulatedSite, skillName: SkillName, args: Record<string, unknown>): Promise<string | undefined> {
  const missing = (name: string) => `the collection ${name} neither exists nor is created by an earlier step`;
  switch (skillName) {
    case 'createCollection':
      return (await site.collection(args.name as string)) ? `the collection ${args.name as string} already exists` : undefined;
    case 'deleteCollection':
      return (await site.collection(args.name as string)) ? undefined : missing(args.name as string);
    case 'createField':
    case 'updateField':
    case 'deleteField': {
      const name = args.collection as string;
      const collection = await site.collection(name);
      if (!collection) return missing(name);
      const field = skillName === 'createField' ? ((args.field as Field).name as string) : (args.field as string);
      const exists = collection.fields.some((candidate) => candidate.name === field);
      if (skillName === 'createField') return exists ? `the field ${field} already exists in ${name}` : undefined;
      return exists ? undefined : `the field ${field} neither exists in ${name} nor is created by an earlier step`;
    }
    case 'createItem':
    case 'updateItem':
    case 'deleteItem': {
      const name = args.collection as string;
      const collection = await site.collection(name);
      if (!collection) return missing(name);
      if (skillName !== 'createItem' && !(await site.item(collection.id, args.id as string)))
        return `the item ${args.id as string} does not exist in ${name}`;
      if (skillName === 'deleteItem') return undefined;
      try {
        validateItemData(collection.fields, args.data as Record<string, unknown>, skillName === 'createItem' ? 'create' : 'patch');
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const details = error.details?.map((detail) => `${detail.path}: ${detail.message}`).join('; ');
        return `the data does not fit ${name}${details ? ` (${details})` : ''}`;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** The step's sentence: what it creates, changes or removes, saying which earlier step made what it works on. */
async function sentenceOf(
  site: SimulatedSite,
  skillName: SkillName,
  args: Record<string, unknown>,
  inspected: string | undefined,
): Promise<string | undefined> {
  const collection = typeof args.collection === 'string' ? args.collection : undefined;
  const createdBy = collection ? await site.createdBy(collection) : undefined;
  const suffix = createdBy !== undefined ? ` (created by step ${createdBy})` : '';
  switch (skillName) {
    case 'createField': {
      const field = args.field as Field;
      return `Adds the ${field.type} field ${field.name} to ${collection}${suffix}`;
    }
    case 'createItem': {
      const title = titleOf(args.data as Record<string, unknown>);
      return `Creates an item${title ? ` "${title}"` : ''} in ${collection}${suffix}`;
    }
    case 'updateItem':
      return inspected ?? `Updates the item ${args.id as string} of ${collection}${suffix}`;
    case 'deleteItem':
      return inspected ?? `Deletes the item ${args.id as string} of ${collection}${suffix}`;
    default:
      return inspected === undefined ? undefined : `${inspected}${suffix}`;
  }
}

/** A call of a plan with its target and impact as the dry run found them. */
export interface DryRunCall {
  /** The step's id when it has one already (an edited plan's steps keep theirs). */
  id?: string;
  skillName: string;
  arguments: Record<string, unknown>;
  target?: ApprovalTarget;
  impact?: ApprovalImpact;
}

export type PlanDryRun = { ok: true; steps: DryRunCall[] } | { ok: false; index: number; reason: string };

/**
 * The calls as one plan, each dry-run against the site as the earlier ones leave it: their targets and impacts, or the
 * first (index from 0) that cannot succeed there and why. Without a site view each is inspected against the site as it is.
 */
export async function dryRunPlan(
  targets: ApprovalTargets,
  siteId: string,
  calls: readonly { id?: string | undefined; skillName: string; arguments: Record<string, unknown> }[],
): Promise<PlanDryRun> {
  const view = targets.siteView?.(siteId);
  const site = view ? new SimulatedSite(view.site) : undefined;
  const context = view?.restorableDays !== undefined ? { restorableDays: view.restorableDays } : {};
  const steps: DryRunCall[] = [];
  for (const [index, call] of calls.entries()) {
    const dry: DryRun = site
      ? await dryRunStep(site, call.skillName, call.arguments, index + 1, context)
      : { ok: true, ...(await targets.inspect(siteId, call.skillName, call.arguments)) };
    if (!dry.ok) return { ok: false, index, reason: dry.reason };
    steps.push({
      ...(call.id !== undefined ? { id: call.id } : {}),
      skillName: call.skillName,
      arguments: call.arguments,
      ...(dry.target ? { target: dry.target } : {}),
      ...(dry.impact ? { impact: dry.impact } : {}),
    });
  }
  return { ok: true, steps };
}

/** The plan's summary: one clause per step, in order. */
export function planSummary(impacts: readonly (ApprovalImpact | undefined)[], skillNames: readonly string[]): string {
  return impacts.map((impact, index) => `${index + 1}. ${impact?.summary ?? skillNames[index]}`).join('; ');
}

/**
 * A stored plan dry-run again against the site as it now is, as when it was planned (at decision): each step's target
 * and impact now, or null when a step cannot succeed any more or its target is no longer the one it was planned with.
 * Without a site view the plan is taken as it stands.
 */
export async function planAsItNowIs(
  targets: ApprovalTargets,
  approval: {
    siteId: string;
    steps: readonly {
      id?: string;
      skillName: string;
      arguments: Record<string, unknown>;
      target?: ApprovalTarget;
      impact?: ApprovalImpact;
    }[];
  },
): Promise<DryRunCall[] | null> {
  if (!targets.siteView) return [...approval.steps];
  const dry = await dryRunPlan(targets, approval.siteId, approval.steps);
  if (!dry.ok) return null;
  const moved = dry.steps.some(
    (step, index) => canonicalJson(step.target ?? null) !== canonicalJson(approval.steps[index]!.target ?? null),
  );
  return moved ? null : dry.steps;
}
