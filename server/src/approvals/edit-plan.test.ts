// Editing a plan's steps (docs/API.md "Runs and plans" → Edits), over HTTP on the real composed server with the OpenAI
// planner talking to a local test server: PATCH `{ revision, steps }` edits the steps given, removes those given as
// null (one must remain), validates each with its skill's schema, dry-runs the steps left again as one plan (a step
// that cannot succeed → 400 with why), keeps the model's steps in originalSteps and runs nothing; approving then runs
// the edited plan.
// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are JSON the tests read.
import { ApprovalJson } from '@lumibase/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { type FakeModelServer, startFakeModelServer } from '../../test-support/fake-model-server.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

type Member = { id: string; token: string };
let model: FakeModelServer;
let server: TestServer;

beforeAll(async () => {
  model = await startFakeModelServer('openai');
  server = await startTestServer('edit-plan', {
    DECIDE_WAIT_MS: '0',
    LLM_PROVIDER: 'openai',
    OPENAI_API_KEY: 'sk-edit-plan-test',
    OPENAI_BASE_URL: model.url,
  });
});
afterAll(async () => {
  await server?.close();
  await model?.close();
});

/** A site of its own with two admins: ann asks and edits, bob approves. */
async function site(name: string) {
  const siteId = await server.createSite(name);
  const ann = await server.createMember({ siteId, role: 'admin' });
  const bob = await server.createMember({ siteId, role: 'admin' });
  const as = (member: Member, method: string, path: string, body?: unknown) =>
    server.request(method, path, { token: member.token, siteId, ...(body === undefined ? {} : { body }) });
  return {
    ann,
    bob,
    as,
    edit: (id: string, body: unknown) => as(ann, 'PATCH', `/ai/approvals/${id}`, body),
    read: async (id: string) => ApprovalJson.parse((await as(ann, 'GET', `/ai/approvals/${id}`)).body.data),
    /** The model plans these calls in one turn; a further reply is scripted for the run's continuation after a decision. */
    async plan(calls: Call[]): Promise<string> {
      model.script([{ toolCalls: calls }, { text: 'Planned; an admin must approve it.' }, { text: 'Noted.' }]);
      const response = await as(ann, 'POST', '/ai/chat', { message: 'plan it' });
      expect(response.body.data).toMatchObject({ status: 'pending_approval' });
      return response.body.data.approvalId;
    },
    /** bob approves the revision given; the plan runs in the worker, and the run goes on (the model is called again). */
    async approve(id: string, revision: number) {
      const requests = model.requests.length;
      expect((await as(bob, 'POST', `/ai/approvals/${id}/decide`, { decision: 'approved', revision })).status).toBe(202);
      const settled = await eventually(async () => {
        const current = await this.read(id);
        expect(current.status).not.toBe('executing');
        return current;
      });
      await eventually(async () => expect(model.requests.length).toBeGreaterThan(requests));
      return settled;
    },
    async audit(id: string) {
      const entries = (await as(ann, 'GET', '/ai/audit?limit=100')).body.data as any[];
      return entries.filter((entry) => entry.approvalId === id).reverse();
    },
  };
}

type Call = { name: string; arguments: Record<string, unknown> };
const GIGS: Call[] = [
  { name: 'createCollection', arguments: { name: 'gigs' } },
  { name: 'createField', arguments: { collection: 'gigs', field: { name: 'title', type: 'string' } } },
  { name: 'createField', arguments: { collection: 'gigs', field: { name: 'seats', type: 'integer' } } },
  { name: 'createItem', arguments: { collection: 'gigs', data: { title: 'Opening', seats: 40 } } },
];
const unedited = (calls: Call[]): ({ arguments: Record<string, unknown> } | null)[] => calls.map((call) => ({ arguments: call.arguments }));

it("edits a step's arguments: a new revision dry-run again that runs nothing; approving it runs the edited plan", async () => {
  const s = await site('Edit plan step');
  const id = await s.plan(GIGS);
  const proposed = await s.read(id);
  expect(proposed.steps).toHaveLength(4);

  const steps = unedited(GIGS);
  steps[3] = { arguments: { collection: 'gigs', data: { title: 'Grand opening', seats: 120 } } };
  const edited = await s.edit(id, { revision: proposed.revision, steps });
  expect(edited.status).toBe(200);
  const approval = ApprovalJson.parse(edited.body.data);
  expect(approval.status).toBe('pending');
  expect(approval.revision).toBe(proposed.revision + 1);
  expect(approval.skillName).toBe('plan');
  expect(approval.editedBy?.id).toBe(s.ann.id);
  expect(approval.steps.map((step) => [step.skillName, step.status, step.impact?.summary])).toEqual([
    ['createCollection', 'planned', 'Creates the collection gigs with 0 fields'],
    ['createField', 'planned', 'Adds the string field title to gigs (created by step 1)'],
    ['createField', 'planned', 'Adds the integer field seats to gigs (created by step 1)'],
    ['createItem', 'planned', 'Creates an item "Grand opening" in gigs (created by step 1)'],
  ]);
  expect(approval.steps[3]!.arguments).toEqual({ collection: 'gigs', data: { title: 'Grand opening', seats: 120 } });
  expect(approval.impact?.summary).toContain('4. Creates an item "Grand opening" in gigs (created by step 1)');
  // The model's proposal is kept.
  const callsOf = (steps: { skillName: string; arguments: unknown }[] | undefined) =>
    steps?.map((step) => [step.skillName, step.arguments]);
  expect(callsOf(approval.originalSteps)).toEqual(callsOf(proposed.steps));
  // Nothing ran.
  expect((await s.as(s.ann, 'GET', '/collections/gigs')).status).toBe(404);
  const edits = (await s.audit(id)).filter((entry) => entry.action === 'edited');
  expect(edits).toHaveLength(1);
  expect(edits[0].actor.id).toBe(s.ann.id);
  expect(edits[0].detail.steps[3].arguments.data.title).toBe('Grand opening');
  expect(edits[0].detail.previousSteps[3].arguments.data.title).toBe('Opening');

  // The revision the editor saw is gone: a second edit (or a decision) naming it is refused.
  expect((await s.edit(id, { revision: proposed.revision, steps: unedited(GIGS) })).status).toBe(409);
  expect((await s.as(s.bob, 'POST', `/ai/approvals/${id}/decide`, { decision: 'approved', revision: proposed.revision })).status).toBe(409);

  // A second edit keeps the model's proposal, not the first edit.
  steps[2] = { arguments: { collection: 'gigs', field: { name: 'capacity', type: 'integer' } } };
  steps[3] = { arguments: { collection: 'gigs', data: { title: 'Grand opening', capacity: 120 } } };
  const again = ApprovalJson.parse((await s.edit(id, { revision: approval.revision, steps })).body.data);
  expect(again.revision).toBe(approval.revision + 1);
  expect(callsOf(again.originalSteps)).toEqual(callsOf(proposed.steps));

  const settled = await s.approve(id, again.revision);
  expect(settled.status).toBe('approved');
  expect(settled.steps.map((step) => step.status)).toEqual(['done', 'done', 'done', 'done']);
  const collection = (await s.as(s.ann, 'GET', '/collections/gigs')).body.data;
  expect(collection.fields.map((field: any) => [field.name, field.type])).toEqual([
    ['title', 'string'],
    ['capacity', 'integer'],
  ]);
  const items = (await s.as(s.ann, 'GET', '/items/gigs')).body.data;
  expect(items.map((item: any) => item.data)).toEqual([{ title: 'Grand opening', capacity: 120 }]);
});

it('removes steps given as null: the steps left are numbered again; cut down to one, it is a one-step approval that runs alone', async () => {
  const s = await site('Remove plan steps');
  const id = await s.plan(GIGS);
  const proposed = await s.read(id);

  // Without the title field, the item must not name it (its data would not fit the collection).
  const steps = unedited(GIGS);
  steps[1] = null;
  steps[3] = { arguments: { collection: 'gigs', data: { seats: 40 } } };
  const edited = ApprovalJson.parse((await s.edit(id, { revision: proposed.revision, steps })).body.data);
  expect(edited.skillName).toBe('plan');
  expect(edited.steps.map((step) => [step.skillName, step.impact?.summary])).toEqual([
    ['createCollection', 'Creates the collection gigs with 0 fields'],
    ['createField', 'Adds the integer field seats to gigs (created by step 1)'],
    ['createItem', 'Creates an item in gigs (created by step 1)'],
  ]);
  expect((await s.audit(id)).filter((entry) => entry.action === 'edited')[0].detail.removedSteps).toEqual([2]);

  // Now three steps: removing the last two leaves the collection alone, a one-step approval.
  const single = ApprovalJson.parse(
    (await s.edit(id, { revision: edited.revision, steps: [{ arguments: { name: 'gigs' } }, null, null] })).body.data,
  );
  expect(single.revision).toBe(edited.revision + 1);
  expect(single.skillName).toBe('createCollection');
  expect(single.arguments).toEqual({ name: 'gigs' });
  expect(single.steps.map((step) => [step.skillName, step.arguments, step.status])).toEqual([
    ['createCollection', { name: 'gigs' }, 'planned'],
  ]);
  expect(single.impact?.summary).toBe('Creates the collection gigs with 0 fields');
  expect(single.originalSteps).toHaveLength(4);
  expect((await s.as(s.ann, 'GET', '/collections/gigs')).status).toBe(404);

  const settled = await s.approve(id, single.revision);
  expect(settled.status).toBe('approved');
  const collection = (await s.as(s.ann, 'GET', '/collections/gigs')).body.data;
  expect(collection.fields).toEqual([]);
  expect((await s.as(s.ann, 'GET', '/items/gigs')).body.data).toEqual([]);
});

it('refuses with 400 and details: removing every step, arguments its skill refuses, a step that cannot succeed after the edit; 409 for a stale revision', async () => {
  const s = await site('Refused plan edits');
  const id = await s.plan(GIGS);
  const proposed = await s.read(id);
  const refused = async (body: unknown) => {
    const response = await s.edit(id, body);
    expect(response.status).toBe(400);
    return response.body.error;
  };

  const none = await refused({ revision: proposed.revision, steps: [null, null, null, null] });
  expect(none.details).toEqual([{ path: 'steps', message: 'at least one step must remain' }]);

  expect((await refused({ revision: proposed.revision, steps: unedited(GIGS).slice(0, 3) })).details[0].path).toBe('steps');

  const invalid = unedited(GIGS);
  invalid[1] = { arguments: { collection: 'gigs', field: { name: 'title', type: 'no-such-type' } } };
  invalid[3] = { arguments: { collection: 'gigs' } };
  const details = (await refused({ revision: proposed.revision, steps: invalid })).details as { path: string }[];
  expect(details.some((detail) => detail.path.startsWith('steps.1.arguments.field'))).toBe(true);
  expect(details.some((detail) => detail.path.startsWith('steps.3.arguments'))).toBe(true);

  // Without step 1, the collection of step 2 neither exists nor is created earlier.
  const orphaned = await refused({ revision: proposed.revision, steps: [null, ...unedited(GIGS).slice(1)] });
  expect(orphaned.message).toBe(
    'Step 2 (“Add a field”) cannot succeed after the edit: the collection gigs neither exists nor is created by an earlier step',
  );
  expect(orphaned.details).toEqual([
    { path: 'steps.1.arguments', message: 'the collection gigs neither exists nor is created by an earlier step' },
  ]);
  // An item whose data does not fit the planned collection.
  const misfit = unedited(GIGS);
  misfit[3] = { arguments: { collection: 'gigs', data: { seats: 'many' } } };
  const misfitError = await refused({ revision: proposed.revision, steps: misfit });
  expect(misfitError.details[0].path).toBe('steps.3.arguments');
  expect(misfitError.message).toContain('the data does not fit gigs');

  // Nothing of the refused edits was stored.
  const unchanged = await s.read(id);
  expect(unchanged.revision).toBe(proposed.revision);
  expect(unchanged.originalSteps).toBeUndefined();
  expect((await s.audit(id)).some((entry) => entry.action === 'edited')).toBe(false);

  expect((await s.edit(id, { revision: proposed.revision + 1, steps: unedited(GIGS) })).status).toBe(409);
  expect((await s.read(id)).revision).toBe(proposed.revision);
});
