// Each skill module's inspect, read through a SiteView: here a site held in memory, the way a plan's simulated site
// will answer (the stores' answers are covered by the approvals' target-binding tests).
import { SKILL_NAMES, type SkillArguments, type SkillName } from '@lumibase/shared';
import { describe, expect, it } from 'vitest';
import type { SiteView } from './site-view.js';
import type { InspectContext } from './skill-module.js';
import { SKILL_MODULES } from './skill-modules.js';
import { inspectSkill } from './store-approval-targets.js';

interface MemoryItem {
  id: string;
  revision: number;
  data: Record<string, unknown>;
}

/** A site in memory: collections by name with fields and items (newest first), members and users. */
function memorySite(site: {
  collections?: Record<string, { id: string; fields: string[]; items?: MemoryItem[] }>;
  members?: Record<string, { role: string; name?: string }>;
}): SiteView {
  const collections = Object.entries(site.collections ?? {});
  const byId = (id: string) => collections.find(([, collection]) => collection.id === id)?.[1];
  return {
    collection: async (name) => {
      const found = site.collections?.[name];
      return found ? { id: found.id, fields: found.fields.map((field) => ({ name: field })) } : null;
    },
    items: async (collectionId, { limit, offset }) => {
      const items = byId(collectionId)?.items ?? [];
      return { records: items.slice(offset, offset + limit), total: items.length };
    },
    item: async (collectionId, id) => byId(collectionId)?.items?.find((item) => item.id === id) ?? null,
    member: async (userId) => (site.members?.[userId] ? { role: site.members[userId].role } : null),
    user: async (userId) => (site.members?.[userId]?.name ? { name: site.members[userId].name } : null),
  };
}

const items = (count: number, data: (index: number) => Record<string, unknown>): MemoryItem[] =>
  Array.from({ length: count }, (_, index) => ({ id: `i${index}`, revision: 1, data: data(index) }));

const inspect = <Name extends SkillName>(name: Name, args: SkillArguments<Name>, context: InspectContext) =>
  inspectSkill(name, args, context);

describe('a skill module’s inspect', () => {
  it('has a module for every skill of the catalog, and nothing else', () => {
    expect(Object.keys(SKILL_MODULES).sort()).toEqual([...SKILL_NAMES].sort());
  });

  it('previews deleting a collection: every item counted, ten listed with their titles, restorable days', async () => {
    const site = memorySite({
      collections: { posts: { id: 'c1', fields: ['title'], items: items(12, (index) => ({ title: `Post ${index}` })) } },
    });
    const preview = await inspect('deleteCollection', { name: 'posts' }, { site, restorableDays: 30 });
    expect(preview.target).toEqual({ kind: 'collection', collection: 'posts', collectionId: 'c1' });
    expect(preview.impact?.summary).toBe('Deletes the collection posts and its 12 items');
    expect(preview.impact?.items).toHaveLength(10);
    expect(preview.impact?.items?.[0]).toEqual({ id: 'i0', title: 'Post 0' });
    expect(preview.impact?.restorableDays).toBe(30);
  });

  it('names no id for a collection that does not exist, so its creation since changes the target', async () => {
    const preview = await inspect('deleteCollection', { name: 'ghosts' }, { site: memorySite({}) });
    expect(preview).toEqual({
      target: { kind: 'collection', collection: 'ghosts' },
      impact: { summary: 'The collection ghosts does not exist' },
    });
  });

  it('previews deleting a field by the items holding a value, with "or more" past the hundred it scans', async () => {
    const many = memorySite({
      collections: { posts: { id: 'c1', fields: ['title', 'summary'], items: items(150, () => ({ summary: 'x' })) } },
    });
    const preview = await inspect('deleteField', { collection: 'posts', field: 'summary' }, { site: many });
    expect(preview.target).toEqual({ kind: 'field', collection: 'posts', collectionId: 'c1', field: 'summary' });
    expect(preview.impact?.summary).toBe('Deletes the field summary of posts and its values in 100 items or more');
    expect(preview.impact?.values).toEqual(Array(10).fill('x'));

    const few = memorySite({
      collections: { posts: { id: 'c1', fields: ['summary'], items: items(3, (index) => (index === 1 ? { summary: 'only' } : {})) } },
    });
    const small = await inspect('deleteField', { collection: 'posts', field: 'summary' }, { site: few });
    expect(small.impact?.summary).toBe('Deletes the field summary of posts and its values in 1 item');
    const missing = await inspect('deleteField', { collection: 'posts', field: 'body' }, { site: few });
    expect(missing).toEqual({
      target: { kind: 'field', collection: 'posts', collectionId: 'c1' },
      impact: { summary: 'The field body does not exist in posts' },
    });
  });

  it('binds deleting an item to the revision its approver saw', async () => {
    const site = memorySite({
      collections: { posts: { id: 'c1', fields: [], items: [{ id: 'i7', revision: 4, data: { title: 'Launch' } }] } },
    });
    const preview = await inspect('deleteItem', { collection: 'posts', id: 'i7' }, { site });
    expect(preview).toEqual({
      target: { kind: 'item', collection: 'posts', collectionId: 'c1', id: 'i7', revision: 4 },
      impact: { summary: 'Deletes the item "Launch" from posts', items: [{ id: 'i7', title: 'Launch' }] },
    });
  });

  it('names the member a removal would remove, with their role', async () => {
    const site = memorySite({ members: { u1: { role: 'editor', name: 'Ada' } } });
    expect(await inspect('deleteUser', { userId: 'u1' }, { site })).toEqual({
      target: { kind: 'user', id: 'u1' },
      impact: { summary: 'Removes Ada (editor) from this site' },
    });
    expect((await inspect('deleteUser', { userId: 'u2' }, { site })).target).toEqual({ kind: 'user' });
  });

  it('previews the schema changes that add or change', async () => {
    const site = memorySite({ collections: { posts: { id: 'c1', fields: ['title'] } } });
    const created = await inspect(
      'createCollection',
      { name: 'pages', fields: [{ name: 'title', type: 'string', required: false }] },
      { site },
    );
    expect(created).toEqual({
      target: { kind: 'collection', collection: 'pages' },
      impact: { summary: 'Creates the collection pages with 1 field' },
    });
    const added = await inspect(
      'createField',
      { collection: 'posts', field: { name: 'summary', type: 'text', required: false } },
      { site },
    );
    expect(added.impact?.summary).toBe('Adds the field summary of posts');
    const changed = await inspect('updateField', { collection: 'posts', field: 'title', changes: { required: true } }, { site });
    expect(changed.target).toEqual({ kind: 'field', collection: 'posts', collectionId: 'c1', field: 'title' });
  });

  it('has nothing to show for a skill that is never gated', async () => {
    const site = memorySite({ collections: { posts: { id: 'c1', fields: ['title'] } } });
    expect(await inspect('createItem', { collection: 'posts', data: { title: 'x' } }, { site })).toEqual({});
    expect(await inspect('listCollections', {}, { site })).toEqual({});
  });
});
