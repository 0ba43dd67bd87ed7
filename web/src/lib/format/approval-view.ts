// What an approval card shows beyond the arguments: time left, edits checked as they are typed, and their diff.
import { type ErrorDetail, findSkill, parseSkillArguments } from '@lumibase/shared';

/** "2 days 23 hours left", "14 minutes left", "Expired". */
export function timeLeft(expiresAt: string, now: number = Date.now()): string {
  const ms = Date.parse(expiresAt) - now;
  if (!(ms > 0)) return 'Expired';
  const minutes = Math.ceil(ms / 60_000);
  const unit = (count: number, name: string) => `${count} ${name}${count === 1 ? '' : 's'}`;
  if (minutes < 60) return `${unit(minutes, 'minute')} left`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${unit(hours, 'hour')}${minutes % 60 ? ` ${unit(minutes % 60, 'minute')}` : ''} left`;
  const days = Math.floor(hours / 24);
  return `${unit(days, 'day')}${hours % 24 ? ` ${unit(hours % 24, 'hour')}` : ''} left`;
}

export type EditCheck = { ok: true; arguments: Record<string, unknown> } | { ok: false; message: string; details: ErrorDetail[] };

/** The edited text as the server will check it: JSON, then the skill's schema. */
export function checkEdit(skillName: string, text: string): EditCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `Not JSON: ${(error as Error).message}`, details: [] };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, message: 'The arguments must be a JSON object', details: [] };
  const skill = findSkill(skillName);
  if (!skill) return { ok: false, message: `Unknown skill ${skillName}`, details: [] };
  const parsed = parseSkillArguments(skill, value);
  return parsed.success
    ? { ok: true, arguments: parsed.arguments }
    : { ok: false, message: `Not valid for ${skillName}`, details: parsed.details };
}

export interface ArgumentChange {
  key: string;
  from?: string;
  to?: string;
}

/** Top-level keys whose value differs between the model's arguments and the edited ones. */
export function diffArguments(original: Record<string, unknown>, edited: Record<string, unknown>): ArgumentChange[] {
  const keys = [...new Set([...Object.keys(original), ...Object.keys(edited)])].sort();
  const changes: ArgumentChange[] = [];
  for (const key of keys) {
    const from = key in original ? JSON.stringify(original[key]) : undefined;
    const to = key in edited ? JSON.stringify(edited[key]) : undefined;
    if (from !== to) changes.push({ key, ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) });
  }
  return changes;
}
