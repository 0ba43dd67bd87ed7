// MongoDB's rules for the paths of an operator update, checked before mingo applies it: conflicts (40),
// positional `$`, `$[]` and `$[id]` resolved to concrete array indexes (as mongod resolves them, once,
// against the document before the update), and fields that cannot be created (28).
import type { Document } from 'bson';
import { Query } from 'mingo/query';
import { CommandError } from './command-error.js';
import { MINGO_QUERY_COMPUTE_OPTIONS } from './mingo-options.js';

export interface PositionalContext {
  filter: Document;
  arrayFilters: Document[];
  /** Identifiers of `arrayFilters` some path used (an unused one is an error). */
  usedIdentifiers: Set<string>;
}

const IDENTIFIER = /^\$\[([a-z][a-zA-Z0-9]*)?\]$/;

export function isPositional(part: string): boolean {
  return part === '$' || IDENTIFIER.test(part);
}

export function hasPositional(path: string): boolean {
  return path.split('.').some(isPositional);
}

/** Two paths conflict when one is the other or a prefix of it, component by component. */
export function conflictAt(a: string[], b: string[]): string | undefined {
  const shorter = a.length <= b.length ? a : b;
  for (let index = 0; index < shorter.length; index++) if (a[index] !== b[index]) return undefined;
  return shorter.join('.');
}

/** Refuses two operators (or one operator twice) touching overlapping paths, as mongod does at parse time. */
export function assertNoConflicts(
  paths: string[],
  message = (path: string, at: string) => `Updating the path '${path}' would create a conflict at '${at}'`,
): void {
  const seen: string[][] = [];
  for (const path of paths) {
    const parts = path.split('.');
    for (const earlier of seen) {
      const at = conflictAt(earlier, parts);
      if (at !== undefined) throw new CommandError('ConflictingUpdateOperators', message(path, at));
    }
    seen.push(parts);
  }
}

function isPlainObject(value: unknown): value is Document {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function isIndex(part: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(part);
}

/** The value one path component down: array elements by index, document fields by name. */
export function childOf(value: unknown, part: string): unknown {
  if (Array.isArray(value)) return isIndex(part) ? value[Number(part)] : undefined;
  if (isPlainObject(value)) return Object.hasOwn(value, part) ? value[part] : undefined;
  return undefined;
}

export function valueAtPath(document: Document, path: string): unknown {
  let value: unknown = document;
  for (const part of path.split('.')) value = childOf(value, part);
  return value;
}

function nest(path: string, value: unknown): Document {
  return path
    .split('.')
    .reduceRight<Document>((inner, part, index, parts) => (index === parts.length - 1 ? { [part]: value } : { [part]: inner }), {});
}

function render(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The index the positional `$` stands for: the first element of the array at `arrayPath` the filter matched. */
function positionalIndex(context: PositionalContext, arrayPath: string, array: unknown): number {
  const notFound = () => new CommandError('BadValue', 'The positional operator did not find the match needed from the query.');
  if (!Array.isArray(array)) throw notFound();
  const conditions = Object.entries(context.filter).filter(([key]) => key === arrayPath || key.startsWith(`${arrayPath}.`));
  if (conditions.length === 0) throw notFound();
  const query = new Query(Object.fromEntries(conditions), MINGO_QUERY_COMPUTE_OPTIONS);
  const index = array.findIndex((element) => query.test(nest(arrayPath, [element])));
  if (index < 0) throw notFound();
  return index;
}

function arrayFilterFor(context: PositionalContext, identifier: string, path: string): Query {
  const clauses = context.arrayFilters.filter((filter) => Object.keys(filter).some((key) => key.split('.')[0] === identifier));
  if (clauses.length === 0) throw new CommandError('BadValue', `No array filter found for identifier '${identifier}' in path '${path}'`);
  context.usedIdentifiers.add(identifier);
  return new Query(Object.assign({}, ...clauses), MINGO_QUERY_COMPUTE_OPTIONS);
}

/** Every concrete path a (possibly positional) path names in `document`; none when an `$[id]` matches nothing. */
export function concretePaths(document: Document, path: string, context: PositionalContext): string[] {
  const parts = path.split('.');
  if (!parts.some(isPositional)) return [path];
  const results: string[] = [];
  const walk = (value: unknown, index: number, prefix: string[]): void => {
    if (index === parts.length) {
      results.push(prefix.join('.'));
      return;
    }
    const part = parts[index] as string;
    if (!isPositional(part)) {
      walk(childOf(value, part), index + 1, [...prefix, part]);
      return;
    }
    const here = prefix.join('.');
    if (part === '$') {
      const position = positionalIndex(context, here, value);
      walk((value as unknown[])[position], index + 1, [...prefix, String(position)]);
      return;
    }
    if (value === undefined)
      throw new CommandError('BadValue', `The path '${here}' must exist in the document in order to apply array updates.`);
    if (!Array.isArray(value)) {
      throw new CommandError('BadValue', `Cannot apply array updates to non-array element ${prefix.at(-1) ?? here}: ${render(value)}`);
    }
    const identifier = IDENTIFIER.exec(part)?.[1];
    const filter = identifier ? arrayFilterFor(context, identifier, path) : undefined;
    value.forEach((element, position) => {
      if (!filter || filter.test({ [identifier as string]: element })) walk(element, index + 1, [...prefix, String(position)]);
    });
  };
  walk(document, 0, []);
  return results;
}

/**
 * Refuses a path that would have to create a field inside an array without an index, or inside a
 * value that is not a document (PathNotViable, 28): mongod refuses it, mingo would skip it silently.
 */
export function assertCreatable(document: Document, path: string): void {
  const parts = path.split('.');
  let value: unknown = document;
  let parent = '';
  for (const part of parts) {
    if (value === undefined) return;
    if (Array.isArray(value) ? !isIndex(part) : !isPlainObject(value)) {
      throw new CommandError('PathNotViable', `Cannot create field '${part}' in element {${parent}: ${render(value)}}`);
    }
    parent = part;
    value = childOf(value, part);
  }
}
