// What an approval will change, and how much: its target (taken at creation, checked at decision and
// right before running) and its impact preview (shown to the approver, refreshed when it grows).
import { type ApprovalImpact, type ApprovalTarget, canonicalJson } from '@lumibase/shared';
import type { Stores } from '../store/stores.js';

export interface TargetPreview {
  target?: ApprovalTarget;
  impact?: ApprovalImpact;
}

export interface ApprovalTargets {
  /** The target and impact of a skill call as the site stands now; {} for skills that change nothing. */
  inspect(siteId: string, skillName: string, args: Record<string, unknown>): Promise<TargetPreview>;
}

/** For tests of the gate alone: no target, no impact. */
export const NO_TARGETS: ApprovalTargets = { inspect: async () => ({}) };

/** Items and values listed in a preview; the summary counts all of them. */
const PREVIEW_LIMIT = 10;

/** Same identity: the recorded target and the current one describe the same thing. */
export function sameTarget(recorded: ApprovalTarget | undefined, current: ApprovalTarget | undefined): boolean {
  return canonicalJson(recorded ?? null) === canonicalJson(current ?? null);
}

export function sameImpact(recorded: ApprovalImpact | undefined, current: ApprovalImpact | undefined): boolean {
  return canonicalJson(recorded ?? null) === canonicalJson(current ?? null);
}

function titleOf(data: Record<string, unknown>): string | undefined {
  for (const key of ['title', 'name', 'label', 'slug']) {
    const value = data[key];
    if (typeof value === 'string' && value.length > 0) return value.slice(0, 200);
  }
  return undefined;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** Over the CMS stores directly: identities (collection ids) are internal and the services do not show them. */
export class StoreApprovalTargets implements ApprovalTargets {
  /** `trashRetentionDays`: how long a deleted collection or field stays restorable (shown on the card). */
  constructor(
    private readonly stores: Pick<Stores, 'forSite' | 'users'>,
    private readonly options: { trashRetentionDays?: number } = {},
  ) {}

  /** A deletion that goes to the trash says for how long it can be restored. */
  private restorable(): { restorableDays?: number } {
    return this.options.trashRetentionDays !== undefined ? { restorableDays: this.options.trashRetentionDays } : {};
  }

  async inspect(siteId: string, skillName: string, args: Record<string, unknown>): Promise<TargetPreview> {
    const site = this.stores.forSite(siteId);
    const text = (key: string) => (typeof args[key] === 'string' ? (args[key] as string) : '');
    switch (skillName) {
      case 'createCollection':
      case 'deleteCollection': {
        const name = text('name');
        const record = await site.collections.findByName(name);
        const target: ApprovalTarget = { kind: 'collection', collection: name, ...(record ? { collectionId: record.id } : {}) };
        if (skillName === 'createCollection') {
          const fields = Array.isArray(args.fields) ? args.fields.length : 0;
          return { target, impact: { summary: `Creates the collection ${name} with ${plural(fields, 'field')}` } };
        }
        if (!record) return { target, impact: { summary: `The collection ${name} does not exist` } };
        const { records, total } = await site.items.list(record.id, { limit: PREVIEW_LIMIT, offset: 0 });
        return {
          target,
          impact: {
            summary: `Deletes the collection ${name} and its ${plural(total, 'item')}`,
            items: records.map((item) => ({ id: item.id, ...(titleOf(item.data) ? { title: titleOf(item.data) } : {}) })),
            ...this.restorable(),
          },
        };
      }
      case 'createField':
      case 'updateField':
      case 'deleteField': {
        const collection = text('collection');
        const field = skillName === 'createField' ? String((args.field as { name?: unknown } | undefined)?.name ?? '') : text('field');
        const record = await site.collections.findByName(collection);
        const exists = record?.fields.some((candidate) => candidate.name === field) ?? false;
        const target: ApprovalTarget = {
          kind: 'field',
          collection,
          ...(record ? { collectionId: record.id } : {}),
          ...(exists ? { field } : {}),
        };
        if (!record) return { target, impact: { summary: `The collection ${collection} does not exist` } };
        if (skillName !== 'deleteField') {
          const verb = skillName === 'createField' ? 'Adds' : 'Changes';
          return { target, impact: { summary: `${verb} the field ${field} of ${collection}` } };
        }
        if (!exists) return { target, impact: { summary: `The field ${field} does not exist in ${collection}` } };
        // The values that will go: items holding one, a sample of them.
        const { records } = await site.items.list(record.id, { limit: 100, offset: 0 });
        const holding = records.filter((item) => item.data[field] !== undefined);
        return {
          target,
          impact: {
            summary: `Deletes the field ${field} of ${collection} and its values in ${plural(holding.length, 'item')}${records.length === 100 ? ' or more' : ''}`,
            values: holding.slice(0, PREVIEW_LIMIT).map((item) => item.data[field]),
            ...this.restorable(),
          },
        };
      }
      case 'deleteItem': {
        const collection = text('collection');
        const id = text('id');
        const record = await site.collections.findByName(collection);
        const item = record ? await site.items.findById(record.id, id) : null;
        const target: ApprovalTarget = {
          kind: 'item',
          collection,
          ...(record ? { collectionId: record.id } : {}),
          // The revision binds the approval to the content its approver saw: an edit since changes the target.
          ...(item ? { id: item.id, revision: item.revision } : {}),
        };
        if (!item) return { target, impact: { summary: `The item ${id} does not exist in ${collection}` } };
        const title = titleOf(item.data);
        return {
          target,
          impact: {
            summary: `Deletes the item ${title ? `"${title}"` : item.id} from ${collection}`,
            items: [{ id: item.id, ...(title ? { title } : {}) }],
          },
        };
      }
      case 'deleteUser': {
        const userId = text('userId');
        const membership = await site.members.get(userId);
        const target: ApprovalTarget = { kind: 'user', ...(membership ? { id: userId } : {}) };
        if (!membership) return { target, impact: { summary: `The user ${userId} is not a member of this site` } };
        const user = await this.stores.users.findById(userId);
        return { target, impact: { summary: `Removes ${user?.name ?? userId} (${membership.role}) from this site` } };
      }
      default:
        return {};
    }
  }
}
