// An approval's arguments as a form: its inputs come from the skill's JSON Schema (argument-inputs.ts); here, the values
// of the arguments, the arguments built back from what was typed (checked with the skill's schema), and every error in
// plain words at the input it concerns.
import { type ErrorDetail, findSkill, parseSkillArguments } from '@lumibase/shared';
import { type ArgumentInput, leafInputs } from './argument-inputs.js';

export { type ArgumentInput, type ArgumentInputKind, argumentInputs, labelFor, leafInputs } from './argument-inputs.js';

/** What is typed: text as typed (numbers and JSON too), yes/no as a boolean, an optional yes/no as '' | 'yes' | 'no'. */
export type FormValues = Record<string, string | boolean>;

export type FormCheck = { ok: true; arguments: Record<string, unknown> } | { ok: false; errors: Record<string, string>; general: string[] };

/** The form's values for these arguments. */
export function formValues(inputs: ArgumentInput[], args: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const input of leafInputs(inputs)) {
    const value = valueAt(args, input.path);
    if (input.kind === 'boolean') values[input.path] = input.optional ? (value === undefined ? '' : value ? 'yes' : 'no') : value === true;
    else if (value === undefined) values[input.path] = '';
    else if (input.kind === 'json') values[input.path] = JSON.stringify(value, null, 2);
    else values[input.path] = typeof value === 'string' ? value : String(value);
  }
  return values;
}

/**
 * The arguments the form's values make, checked with the skill's schema: `errors` by input path (a detail about
 * something inside an input goes to that input), `general` for what no input shows. Every message is in words.
 */
export function checkForm(skillName: string, inputs: ArgumentInput[], values: FormValues): FormCheck {
  const errors: Record<string, string> = {};
  const args: Record<string, unknown> = {};
  for (const input of leafInputs(inputs)) {
    const raw = values[input.path] ?? '';
    const read = readValue(input, raw);
    if ('error' in read) errors[input.path] = read.error;
    else if (read.value !== undefined) setAt(args, input.path, read.value);
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors, general: [] };
  const skill = findSkill(skillName);
  if (!skill) return { ok: false, errors, general: ['This request names a skill this Studio does not know.'] };
  const parsed = parseSkillArguments(skill, args);
  if (parsed.success) return { ok: true, arguments: parsed.arguments };
  return { ok: false, ...placeDetails(inputs, parsed.details) };
}

/** Error details (the server's or the schema's) placed at the inputs they concern, in words. */
export function placeDetails(inputs: ArgumentInput[], details: ErrorDetail[]): { errors: Record<string, string>; general: string[] } {
  const errors: Record<string, string> = {};
  const general: string[] = [];
  const leaves = leafInputs(inputs);
  const all = [...leaves, ...groupInputs(inputs)];
  for (const detail of details) {
    const path = (detail.path ?? '').replace(/^(arguments|steps\.\d+\.arguments)\.?/, '');
    const input =
      leaves.find((candidate) => candidate.path === path) ??
      leaves.find((candidate) => path.startsWith(`${candidate.path}.`)) ??
      all.find((candidate) => candidate.path === path);
    const words = inWords(detail.message);
    if (input && input.kind !== 'group') errors[input.path] ??= words;
    else general.push(input ? `${input.label}: ${lowerFirst(words)}` : words);
  }
  return { errors, general };
}

function groupInputs(inputs: ArgumentInput[]): ArgumentInput[] {
  return inputs.flatMap((input) => (input.kind === 'group' ? [input, ...groupInputs(input.children ?? [])] : []));
}

function readValue(input: ArgumentInput, raw: string | boolean): { value: unknown } | { error: string } {
  if (input.kind === 'boolean') {
    if (typeof raw === 'boolean') return { value: raw };
    return { value: raw === '' ? undefined : raw === 'yes' };
  }
  const text = String(raw);
  if (text.trim() === '' && input.optional) return { value: undefined };
  switch (input.kind) {
    case 'number':
    case 'integer': {
      const trimmed = text.trim();
      if (trimmed === '') return { error: 'Enter a number.' };
      if (!/^-?\d+(\.\d+)?$/.test(trimmed))
        return { error: input.kind === 'integer' ? 'Enter a whole number, such as 25.' : 'Enter a number, such as 12.5.' };
      const value = Number(trimmed);
      if (input.kind === 'integer' && !Number.isInteger(value)) return { error: 'Enter a whole number, such as 25.' };
      return { value };
    }
    case 'json': {
      try {
        return { value: JSON.parse(text) };
      } catch {
        return { error: 'This value could not be read: check its brackets, quotes and commas.' };
      }
    }
    case 'choice':
      return { value: text === '' ? undefined : text };
    default:
      return { value: text };
  }
}

/** A schema's message as a person reads it: no patterns, no type names. */
export function inWords(message: string): string {
  if (message.startsWith('must match ^[a-z]'))
    return 'Use lowercase letters, digits and _, starting with a letter (at most 64 characters, such as blog_posts).';
  if (/received undefined/.test(message)) return 'This is required.';
  const tooLong = /Too big: expected string to have <=?(\d+)/.exec(message);
  if (tooLong) return `Use at most ${tooLong[1]} characters.`;
  if (/Too small: expected string to have >=?1 /.test(message)) return 'This cannot be empty.';
  const tooSmall = /Too small: expected number to be >=?(-?\d+)/.exec(message);
  if (tooSmall) return `Use ${tooSmall[1]} or more.`;
  const tooBig = /Too big: expected number to be <=?(-?\d+)/.exec(message);
  if (tooBig) return `Use ${tooBig[1]} or less.`;
  if (/expected int/.test(message)) return 'Enter a whole number, such as 25.';
  if (/expected number/.test(message)) return 'Enter a number.';
  if (/expected boolean/.test(message)) return 'Choose yes or no.';
  if (/^Invalid option/.test(message)) return 'Choose one of the listed options.';
  if (/expected array|expected record|expected object|must be a JSON object/.test(message))
    return 'This must be a list or set of values of the right kind.';
  if (message === 'unknown argument' || /Unrecognized key/.test(message)) return 'This skill does not take this value.';
  if (message === 'must not contain whitespace') return 'Remove the spaces.';
  if (message === 'must not be blank') return 'This cannot be empty.';
  if (message === 'give at least one change') return 'Change at least one thing.';
  if (message.startsWith('enum fields need options.values')) return 'A choice field needs a list of values to choose from.';
  const clean = message.replace(/\^?\[[^\]]*\][^\s]*\$?/g, '').trim();
  return clean ? capitalize(clean.endsWith('.') ? clean : `${clean}.`) : 'This value is not accepted.';
}

export interface LeafChange {
  label: string;
  from?: string;
  to?: string;
}

/** What an edit changes, value by value, labelled as the form labels it: "Field name: teaser → standfirst". */
export function describeChanges(inputs: ArgumentInput[], before: Record<string, unknown>, after: Record<string, unknown>): LeafChange[] {
  const labels = new Map<string, string>();
  const label = (input: ArgumentInput, parents: string[]) => [...parents, input.label].join(' › ');
  const walk = (list: ArgumentInput[], parents: string[]) => {
    for (const input of list) {
      if (input.kind === 'group') walk(input.children ?? [], [...parents, input.label]);
      else labels.set(input.path, label(input, parents));
    }
  };
  walk(inputs, []);
  const from = flatten(before, labels);
  const to = flatten(after, labels);
  const changes: LeafChange[] = [];
  for (const path of [...new Set([...from.keys(), ...to.keys()])]) {
    const a = from.get(path);
    const b = to.get(path);
    if (a === b) continue;
    changes.push({ label: labels.get(path) ?? path, ...(a !== undefined ? { from: a } : {}), ...(b !== undefined ? { to: b } : {}) });
  }
  return changes;
}

/** Values by input path (the form's leaves; anything deeper shown whole). */
function flatten(args: Record<string, unknown>, leaves: Map<string, string>): Map<string, string> {
  const flat = new Map<string, string>();
  const walk = (value: unknown, path: string) => {
    if (value === undefined) return;
    if (path !== '' && (leaves.has(path) || value === null || typeof value !== 'object' || Array.isArray(value))) {
      flat.set(path, display(value));
      return;
    }
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) walk(child, path ? `${path}.${key}` : key);
  };
  walk(args, '');
  return flat;
}

function display(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return JSON.stringify(value);
}

function valueAt(args: Record<string, unknown>, path: string): unknown {
  let value: unknown = args;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function setAt(args: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let target = args;
  for (const key of keys.slice(0, -1)) {
    if (typeof target[key] !== 'object' || target[key] === null) target[key] = {};
    target = target[key] as Record<string, unknown>;
  }
  target[keys[keys.length - 1] as string] = value;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
