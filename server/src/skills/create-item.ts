// createItem: a new item; the operation id is stored on it, so a re-run returns it instead of a second one.
import { titleOf } from '../services/item-title.js';
import { itemRefusal } from './simulated-site.js';
import { writeContext } from './skill-dependencies.js';
import { nothingToInspect, type SkillModule } from './skill-module.js';

export const createItemSkill: SkillModule<'createItem'> = {
  // Not through the run-once ledger (run-once.ts): the item carries the operation id under a unique index and its first
  // revision keeps it after the item leaves, which is all a re-run needs; a first run is then one insert (items.service.ts).
  // A refusal writes nothing, so it is refused again on every run.
  execute: (dependencies) => async (args, context) =>
    dependencies.items.create(context.siteId, args.collection, args.data, writeContext(context)),
  inspect: nothingToInspect,
  verify: async ({ collection }, result, site) => {
    const id = (result as { id?: unknown } | undefined)?.id;
    const record = await site.collection(collection);
    return typeof id === 'string' && record && (await site.item(record.id, id)) ? undefined : `the new item is not in ${collection}`;
  },
  undo: ({ collection }, result) => {
    const id = (result as { id?: unknown } | undefined)?.id;
    return typeof id === 'string' ? { kind: 'discard-item', collection, id } : undefined;
  },
  refuse: ({ collection, data }, site) => itemRefusal(site, collection, { data: { values: data, mode: 'create' } }),
  describeStep: ({ collection, data }, { createdBy }) => {
    const title = titleOf(data);
    return `Creates an item${title ? ` "${title}"` : ''} in ${collection}${createdBy}`;
  },
};
