// Runs the scenario suite through the real server (POST /ai/chat over HTTP, the real gate, stores and
// worker) with one planner: the echo planner, or a scripted model speaking one provider's format from a
// local model server. Each scenario gets a fresh site with the same fixture.
// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are whatever the server sent.
import { isDeepStrictEqual } from 'node:util';
import { matchEchoPhrase } from '../src/llm/echo-phrases.js';
import { type FakeModelServer, type ModelDialect, type ScriptedReply, startFakeModelServer } from '../test-support/fake-model-server.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import type { Scenario } from './scenarios.js';

export type EvalPlanner = 'echo' | ModelDialect;

/** Safe skills that write: a scenario that runs one gets a site of its own. */
const WRITES_AT_ONCE = new Set(['createItem', 'updateItem']);

export interface ScenarioRun {
  scenario: Scenario;
  /** The message as sent (placeholders filled in). */
  message: string;
  made: { name: string; arguments: unknown; status: string }[];
  expected: { name: string; arguments?: Record<string, unknown> }[];
  reply: string;
  steps: number;
  tokens: number;
  failures: string[];
}

const PROVIDER_ENV: Record<ModelDialect, (url: string) => Record<string, string>> = {
  openai: (url) => ({ LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-eval', OPENAI_BASE_URL: url }),
  anthropic: (url) => ({ LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'sk-eval', ANTHROPIC_BASE_URL: url }),
  gemini: (url) => ({ LLM_PROVIDER: 'gemini', GEMINI_API_KEY: 'sk-eval', GEMINI_BASE_URL: url }),
};

interface Fixture {
  siteId: string;
  tokens: Record<'admin' | 'editor' | 'viewer', string>;
  ids: Record<string, string>;
}

async function setUpSite(server: TestServer, index: number): Promise<Fixture> {
  const siteId = await server.createSite(`Eval ${index}`);
  const [admin, editor, viewer] = await Promise.all(
    (['admin', 'editor', 'viewer'] as const).map((role) => server.createMember({ siteId, role })),
  );
  const post = (path: string, body: unknown) => server.request('POST', path, { token: server.adminToken, siteId, body });
  await post('/collections', {
    name: 'posts',
    fields: [
      { name: 'title', type: 'string' },
      { name: 'body', type: 'text' },
    ],
  });
  await post('/collections', { name: 'events', fields: [{ name: 'title', type: 'string' }] });
  const items = [
    { title: 'Welcome', body: 'A friendly welcome to our new site.' },
    { title: 'Launch', body: 'The launch party is on Friday evening.' },
  ];
  const ids: Record<string, string> = { 'user:editor': editor!.id };
  for (const [n, data] of items.entries()) ids[`item:posts:${n}`] = (await post('/items/posts', { data })).body.data.id;
  return { siteId, tokens: { admin: admin!.token, editor: editor!.token, viewer: viewer!.token }, ids };
}

/** Fills `{{…}}` placeholders in text or in any JSON value. */
function fill<T>(value: T, ids: Record<string, string>): T {
  return JSON.parse(JSON.stringify(value).replace(/\{\{([^}]+)\}\}/g, (whole, key: string) => ids[key] ?? whole));
}

/** The scripted model's answer to a RAG skill's own model call. */
const RAG_ANSWERS: Record<string, { name: string; arguments: Record<string, unknown> }> = {
  aiSuggestField: {
    name: 'suggest_field',
    arguments: { name: 'reading_time_minutes', type: 'integer', required: false, rationale: 'How long a post takes to read.' },
  },
  aiContentAssist: { name: 'propose_value', arguments: { value: 'Welcome, friend!', rationale: 'A friendly greeting.' } },
};

/** What the scripted model answers: a recorded exchange, else the scenario's calls then a sentence (or a question back). */
function scriptFor(scenario: Scenario, message: string): ScriptedReply[] {
  if (scenario.recorded) return scenario.recorded.map((step) => ({ ...step, usage: { input: 900, output: 40 } }));
  const call = scenario.calls.length > 0 ? matchEchoPhrase(message) : undefined;
  if (!call) return [{ text: 'Could you say which collection or item you mean?', usage: { input: 800, output: 15 } }];
  return [
    { toolCalls: [{ name: call.name, arguments: call.arguments }], usage: { input: 800, output: 30 } },
    // The RAG skills make a model call of their own, answered by calling their answer tool.
    ...(RAG_ANSWERS[call.name] ? [{ toolCalls: [RAG_ANSWERS[call.name]!], usage: { input: 600, output: 25 } }] : []),
    { text: 'Done: see the result above.', usage: { input: 950, output: 12 } },
  ];
}

export async function runEval(scenarios: readonly Scenario[], planner: EvalPlanner, label = `eval-${planner}`): Promise<ScenarioRun[]> {
  const model: FakeModelServer | undefined = planner === 'echo' ? undefined : await startFakeModelServer(planner);
  const server = await startTestServer(label, {
    CHAT_RATE_LIMIT_PER_MINUTE: '10000',
    ...(model && planner !== 'echo' ? PROVIDER_ENV[planner](model.url) : { LLM_PROVIDER: 'echo' }),
  });
  const runs: ScenarioRun[] = [];
  try {
    // One site for the scenarios that change nothing at once (reads, approvals, denials); a fresh one for each that writes.
    const shared = await setUpSite(server, 0);
    for (const [index, scenario] of scenarios.entries()) {
      const writes = scenario.calls.some((call) => WRITES_AT_ONCE.has(call.name)) && scenario.statuses?.includes('executed');
      const fixture = writes ? await setUpSite(server, index + 1) : shared;
      const message = fill(scenario.message, fixture.ids);
      const before = model?.requests.length ?? 0;
      model?.script(scriptFor(scenario, message));
      const response = await server.request('POST', '/ai/chat', {
        token: fixture.tokens[scenario.role ?? 'admin'],
        siteId: fixture.siteId,
        body: { message },
      });
      const data = response.body?.data ?? {};
      const made = ((data.results ?? []) as any[])
        .filter((outcome) => outcome.skill)
        .map((outcome) => ({ name: outcome.skill.name as string, arguments: outcome.skill.arguments, status: outcome.status as string }));
      const run: ScenarioRun = {
        scenario,
        message,
        made,
        expected: fill(scenario.calls, fixture.ids),
        reply: String(data.reply ?? ''),
        steps: model ? model.requests.length - before : made.length > 0 ? 2 : 1,
        tokens: (data.usage?.inputTokens ?? 0) + (data.usage?.outputTokens ?? 0),
        failures: [],
      };
      if (response.status !== 200) run.failures.push(`answered ${response.status}`);
      judge(run, planner);
      runs.push(run);
    }
  } finally {
    await server.close();
    await model?.close();
  }
  return runs;
}

function judge(run: ScenarioRun, planner: EvalPlanner): void {
  const { scenario, made, expected, reply, failures } = run;
  const names = made.map((call) => call.name);
  if (JSON.stringify(names) !== JSON.stringify(expected.map((call) => call.name)))
    failures.push(`calls ${JSON.stringify(names)}, expected ${JSON.stringify(expected.map((call) => call.name))}`);
  for (const [index, call] of expected.entries())
    if (call.arguments && made[index] && !isDeepStrictEqual(made[index]!.arguments, call.arguments))
      failures.push(`${call.name} arguments ${JSON.stringify(made[index]!.arguments)}`);
  for (const name of scenario.forbidden ?? []) if (names.includes(name)) failures.push(`made the forbidden call ${name}`);
  if (scenario.statuses && JSON.stringify(made.map((call) => call.status)) !== JSON.stringify(scenario.statuses))
    failures.push(`statuses ${JSON.stringify(made.map((call) => call.status))}`);
  if (reply.trim() === '') failures.push('empty reply');
  // Reply wording is the echo planner's own; a model words its replies itself.
  if (planner === 'echo' && scenario.reply && !scenario.reply.test(reply)) failures.push(`reply ${JSON.stringify(reply)}`);
  if (run.steps > (scenario.stepBudget ?? 3)) failures.push(`${run.steps} model steps`);
}
