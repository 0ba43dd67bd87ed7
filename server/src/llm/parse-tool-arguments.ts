// A tool call's arguments as the model sent them (a JSON string) → an object, or why not: never a throw.
import type { PlannedToolCall } from './planner.js';

const SHOWN_MAX = 200;

export function toolCallFromJson(call: { id?: string; name: string; json: string | undefined | null }): PlannedToolCall {
  const { id, name, json } = call;
  const base = { ...(id ? { id } : {}), name };
  const text = json == null || json.trim() === '' ? '{}' : json;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return { ...base, arguments: parsed };
    return { ...base, arguments: text.slice(0, SHOWN_MAX), argumentsError: 'arguments must be a JSON object' };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ...base, arguments: text.slice(0, SHOWN_MAX), argumentsError: `arguments are not valid JSON: ${reason}` };
  }
}
