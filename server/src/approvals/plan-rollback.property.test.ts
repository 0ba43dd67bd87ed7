// Property 21 (docs/PROPERTIES.md), plans all or nothing: for random plans of 2–5 steps (createCollection,
// createField, createItem, updateItem, deleteItem) over a random small site, run by the real job runner with a step
// made to fail at random (or none), the site afterwards — collections, fields, items with their data, the trash —
// equals either every step applied or none; no step ran twice; the audit chain verifies.
import fc from 'fast-check';
import type { Field } from '@lumibase/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Call, openPlanFixture, type PlanFixture, type SiteSnapshot } from '../../test-support/plan-fixture.js';

let plans: PlanFixture;
beforeAll(async () => {
  plans = await openPlanFixture('plan_rollback_property');
});
afterAll(async () => plans?.close());

const field = (name: string): Field => ({ name, type: 'string', required: false });

/** A site: 1–2 collections of optional string fields, 0–3 items each. */
const siteShape = fc.array(
  fc.record({ fields: fc.integer({ min: 1, max: 2 }), items: fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }) }),
  {
    minLength: 1,
    maxLength: 2,
  },
);

/** What each step means to do; made into a call that can succeed on the site as the earlier steps leave it. */
const intents = fc.array(
  fc.record({
    op: fc.constantFrom('createCollection', 'createField', 'createItem', 'updateItem', 'deleteItem'),
    pick: fc.nat(),
    text: fc.string({ maxLength: 6 }),
  }),
  { minLength: 2, maxLength: 5 },
);

interface Model {
  collections: Map<string, { fields: Field[]; items: Map<string, Record<string, unknown>>; created: Record<string, unknown>[] }>;
  deleted: { collection: string; id: string }[];
}

async function buildSite(shape: { fields: number; items: string[] }[]): Promise<{ siteId: string; model: Model }> {
  const siteId = await plans.newSite();
  const model: Model = { collections: new Map(), deleted: [] };
  for (const [index, collection] of shape.entries()) {
    const name = `c${index}`;
    const fields = Array.from({ length: collection.fields }, (_unused, position) => field(`f${position}`));
    await plans.collections.create(siteId, { name, fields });
    const items = new Map<string, Record<string, unknown>>();
    for (const text of collection.items) {
      const data = { f0: text };
      items.set((await plans.items.create(siteId, name, data)).id, data);
    }
    model.collections.set(name, { fields, items, created: [] });
  }
  return { siteId, model };
}

/** The calls of the plan, and the model of the site with all of them applied. */
function planOf(model: Model, wanted: { op: string; pick: number; text: string }[]): Call[] {
  const calls: Call[] = [];
  let fresh = 0;
  for (const { op, pick, text } of wanted) {
    const names = [...model.collections.keys()];
    const collection = names[pick % names.length]!;
    const current = model.collections.get(collection)!;
    const live = [...current.items.keys()];
    const kind = (op === 'updateItem' || op === 'deleteItem') && live.length === 0 ? 'createItem' : op;
    switch (kind) {
      case 'createCollection': {
        const name = `new${calls.length}`;
        model.collections.set(name, { fields: [], items: new Map(), created: [] });
        calls.push({ skillName: 'createCollection', arguments: { name } });
        break;
      }
      case 'createField': {
        const created = field(`g${fresh++}`);
        current.fields.push(created);
        calls.push({ skillName: 'createField', arguments: { collection, field: created } });
        break;
      }
      case 'createItem': {
        const data = Object.fromEntries(current.fields.map((candidate) => [candidate.name, text]));
        current.created.push(data);
        calls.push({ skillName: 'createItem', arguments: { collection, data } });
        break;
      }
      case 'updateItem': {
        const id = live[pick % live.length]!;
        const target = current.fields[pick % current.fields.length]!.name;
        current.items.set(id, { ...current.items.get(id), [target]: text });
        calls.push({ skillName: 'updateItem', arguments: { collection, id, data: { [target]: text } } });
        break;
      }
      default: {
        const id = live[pick % live.length]!;
        current.items.delete(id);
        model.deleted.push({ collection, id });
        calls.push({ skillName: 'deleteItem', arguments: { collection, id } });
      }
    }
  }
  return calls;
}

/** The site with every step applied, as the model says (items a step created compared by their data). */
function expectAllApplied(after: SiteSnapshot, before: SiteSnapshot, model: Model): void {
  expect(after.collections.map((collection) => [collection.name, collection.fields])).toEqual(
    [...model.collections.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, { fields }]) => [name, fields]),
  );
  for (const collection of after.collections) {
    const expected = model.collections.get(collection.name)!;
    const known = collection.items.filter((item) => expected.items.has(item.id));
    expect(Object.fromEntries(known.map((item) => [item.id, item.data]))).toEqual(Object.fromEntries(expected.items));
    const created = collection.items.filter((item) => !expected.items.has(item.id)).map((item) => JSON.stringify(item.data));
    expect(created.sort()).toEqual(expected.created.map((data) => JSON.stringify(data)).sort());
  }
  const deletions = model.deleted.map(({ collection, id }) => ({ kind: 'item', collection, itemId: id, state: 'done' }));
  expect(after.trash).toEqual([...before.trash, ...deletions].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))));
}

it('a plan with a step made to fail at random leaves the site as every step applied or none', async () => {
  await fc.assert(
    fc.asyncProperty(siteShape, intents, fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }), async (shape, wanted, failAt) => {
      const { siteId, model } = await buildSite(shape);
      const before = await plans.snapshot(siteId);
      const calls = planOf(model, wanted);
      const failing = failAt !== undefined && failAt <= calls.length ? failAt : undefined;
      const approval = await plans.propose(siteId, calls);
      plans.runs.clear();
      const settled = await plans.approveAndRun(siteId, approval.id, failing === undefined ? {} : { failAt: failing });
      const after = await plans.snapshot(siteId);
      if (failing === undefined) {
        expect(settled.status).toBe('approved');
        expectAllApplied(after, before, model);
      } else {
        expect(settled.status).toBe('pending');
        expect(settled.steps[failing - 1]!.status).toBe('failed');
        expect(after).toEqual(before);
      }
      // No step ran twice, and the steps after a failing one never ran.
      expect([...plans.runs.values()].every((count) => count === 1)).toBe(true);
      expect(plans.runs.size).toBe(failing === undefined ? calls.length : failing - 1);
      expect((await plans.aiStores.forSite(siteId).audit.verify()).valid).toBe(true);
    }),
    { numRuns: 12 },
  );
}, 60_000);
