// A plan's site as its earlier steps will leave it (dry-run.ts): the real site (a SiteView) plus their effects, which
// each skill module states in this site's words (its `simulate`), and the checks its refusals share.
import { DomainError, type Field } from '@lumibase/shared';
import { validateItemData } from '../services/validate-item-data.js';
import type { SiteView } from './site-view.js';

type CollectionView = { id: string; name: string; fields: Field[]; plannedBy?: number };

/** The real site plus the effects of a plan's earlier steps: collections and fields created or removed, items updated or deleted. */
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

  /** Step `step` creates the collection; its id is a planned one, which holds no items. */
  addCollection(name: string, fields: readonly Field[], step: number): void {
    this.collections.set(name, { id: `planned:${step}`, name, fields: [...fields], plannedBy: step });
  }

  removeCollection(name: string): void {
    this.collections.set(name, null);
  }

  /** Step `step` adds the field (nothing when the collection is not there). */
  async addField(collection: string, field: Field, step: number): Promise<void> {
    const current = await this.collection(collection);
    if (!current) return;
    this.collections.set(collection, { ...current, fields: [...current.fields, field] });
    this.fieldSteps.set(`${collection}/${field.name}`, step);
  }

  async changeField(collection: string, field: string, changes: Partial<Field>): Promise<void> {
    const current = await this.collection(collection);
    if (!current) return;
    const fields = current.fields.map((candidate) => (candidate.name === field ? ({ ...candidate, ...changes } as Field) : candidate));
    this.collections.set(collection, { ...current, fields });
  }

  async removeField(collection: string, field: string): Promise<void> {
    const current = await this.collection(collection);
    if (!current) return;
    this.collections.set(collection, { ...current, fields: current.fields.filter((candidate) => candidate.name !== field) });
    this.fieldSteps.delete(`${collection}/${field}`);
  }

  /** The item's data merged with `data` (a null value removes its field), one revision on. */
  async updateItem(collection: string, id: string, data: Record<string, unknown>): Promise<void> {
    const current = await this.collection(collection);
    const item = current ? await this.item(current.id, id) : null;
    if (!current || !item) return;
    const merged = { ...item.data };
    for (const [key, value] of Object.entries(data)) {
      if (value === null) delete merged[key];
      else merged[key] = value;
    }
    const key = `${current.id}/${id}`;
    this.updatedItems.set(key, { updates: (this.updatedItems.get(key)?.updates ?? 0) + 1, data: merged });
  }

  async removeItem(collection: string, id: string): Promise<void> {
    const current = await this.collection(collection);
    if (current) this.removedItems.add(`${current.id}/${id}`);
  }
}

/** The refusal of a step whose collection is not there. */
export const missingCollection = (name: string) => `the collection ${name} neither exists nor is created by an earlier step`;

/** Why the collection does not hold the field as the step needs (`exists`: it must, else it must not), or undefined. */
export async function fieldRefusal(site: SimulatedSite, collection: string, field: string, exists: boolean): Promise<string | undefined> {
  const record = await site.collection(collection);
  if (!record) return missingCollection(collection);
  if (record.fields.some((candidate) => candidate.name === field) === exists) return undefined;
  return exists
    ? `the field ${field} neither exists in ${collection} nor is created by an earlier step`
    : `the field ${field} already exists in ${collection}`;
}

/**
 * Why an item step cannot succeed: its collection is not there, the item it names is not (`id`), or its data does not
 * fit the collection's fields (`data`, checked as a new item's or as a patch).
 */
export async function itemRefusal(
  site: SimulatedSite,
  collection: string,
  { id, data }: { id?: string; data?: { values: Record<string, unknown>; mode: 'create' | 'patch' } },
): Promise<string | undefined> {
  const record = await site.collection(collection);
  if (!record) return missingCollection(collection);
  if (id !== undefined && !(await site.item(record.id, id))) return `the item ${id} does not exist in ${collection}`;
  if (!data) return undefined;
  try {
    validateItemData(record.fields, data.values, data.mode);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const details = error.details?.map((detail) => `${detail.path}: ${detail.message}`).join('; ');
    return `the data does not fit ${collection}${details ? ` (${details})` : ''}`;
  }
  return undefined;
}
