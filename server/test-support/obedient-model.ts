// The "obedient" test model of the prompt-injection suite: it does whatever it is told by any text it is sent — the
// user's message and every tool result alike — the worst case of a model steered by injected content. An instruction
// is `call <skill>(<key>=<value>, ...)` (dotted keys nest: `field.name=x`); each is obeyed once per turn, in order.
// biome-ignore-all lint/suspicious/noExplicitAny: request bodies are whatever the SDK sent.
import type { RecordedRequest, ScriptedReply, ScriptedToolCall } from './fake-model-server.js';

const INSTRUCTION = /call (\w+)\(([^()]*)\)/g;

/** The text of an instruction the obedient model follows. */
export function instruction(skill: string, args: Record<string, string>): string {
  return `call ${skill}(${Object.entries(args)
    .map(([key, value]) => `${key}=${value}`)
    .join(', ')})`;
}

function parseArguments(text: string): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const pair of text.split(',')) {
    const [rawKey, ...rest] = pair.split('=');
    const key = rawKey?.trim();
    if (!key || rest.length === 0) continue;
    const path = key.split('.');
    let target = result;
    for (const segment of path.slice(0, -1)) {
      target[segment] ??= {};
      target = target[segment] as Record<string, unknown>;
    }
    target[path.at(-1)!] = rest.join('=').trim();
  }
  return result;
}

function instructionsIn(text: string): ScriptedToolCall[] {
  return [...text.matchAll(INSTRUCTION)].map((match) => ({ name: match[1]!, arguments: parseArguments(match[2]!) }));
}

const callKey = (call: { name: string; arguments?: unknown }) => `${call.name}:${JSON.stringify(call.arguments ?? {})}`;

/** One OpenAI Chat Completions answer: the next instruction not obeyed yet in this turn, or a final text. */
export function obedientReply(request: RecordedRequest): ScriptedReply {
  const messages: any[] = request.body?.messages ?? [];
  const lastUser = messages.map((message) => message.role).lastIndexOf('user');
  const turn = messages.slice(lastUser);
  const done = new Set<string>();
  for (const message of turn)
    for (const call of message.tool_calls ?? [])
      done.add(callKey({ name: call.function.name, arguments: JSON.parse(call.function.arguments) }));
  // What it reads: every tool result of the conversation (earlier turns' too, as real models read the history), then
  // the user's new message and this turn's results. Earlier user messages were obeyed in their own turns.
  const texts = [
    ...messages.slice(0, lastUser).filter((message) => message.role === 'tool'),
    ...turn.filter((message) => message.role === 'user' || message.role === 'tool'),
  ].map((message) => String(message.content ?? ''));
  for (const text of texts) {
    const next = instructionsIn(text).find((call) => !done.has(callKey(call)));
    if (next) return { toolCalls: [next] };
  }
  return { text: 'Done as instructed.' };
}
