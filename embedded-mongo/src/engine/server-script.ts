// Server-side JavaScript is off: mingo would run client-supplied functions in this process, unsandboxed.
// Refused up front, as `mongod --noscripting` refuses it, so even an empty or missing collection answers the error.
import type { Document } from 'bson';
import { CommandError } from './command-error.js';

const SCRIPT_OPERATORS = new Set(['$function', '$accumulator']);
const LOGICAL_OPERATORS = new Set(['$and', '$or', '$nor']);

/** A query filter (find, count, distinct, update/delete `q`, findAndModify `query`, listCollections). */
export function refuseScriptsInFilter(filter: unknown): void {
  if (!isObject(filter)) return;
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$where') throw new CommandError('Location6108304', 'no globalScriptEngine in $where parsing');
    if (LOGICAL_OPERATORS.has(key) && Array.isArray(value)) for (const clause of value) refuseScriptsInFilter(clause);
    else refuseScriptsInExpression(value);
  }
}

/** An aggregation pipeline, an update pipeline, or a projection: `$function`/`$accumulator` anywhere. */
export function refuseScriptsInPipeline(pipeline: unknown): void {
  walk(pipeline, (key) => {
    // MongoDB refuses $where inside $match whether or not it has a script engine.
    if (key === '$where') throw new CommandError('BadValue', '$where is not allowed in this context');
  });
  refuseScriptsInExpression(pipeline);
}

function refuseScriptsInExpression(value: unknown): void {
  walk(value, (key) => {
    if (SCRIPT_OPERATORS.has(key)) {
      throw new CommandError('Location31264', 'Cannot run server-side javascript without the javascript engine enabled');
    }
  });
}

function walk(value: unknown, visit: (key: string) => void, depth = 0): void {
  // Deeper than any real query: mingo's own refusal (scriptEnabled: false) still covers what lies below.
  if (depth > 200) return;
  if (Array.isArray(value)) {
    for (const item of value) walk(item, visit, depth + 1);
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      visit(key);
      walk(item, visit, depth + 1);
    }
  }
}

function isObject(value: unknown): value is Document {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
