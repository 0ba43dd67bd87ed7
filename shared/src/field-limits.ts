// How long a text value may be and how large a number (docs/API.md, Content): one rule for the server's validation
// and the Studio's inputs.

/** A `string` value: at most this many characters (`options.maxLength` may lower it). */
export const STRING_MAX_LENGTH = 1000;
/** A `text` value: at most this many characters (`options.maxLength` may lower it). */
export const TEXT_MAX_LENGTH = 1_000_000;

/** The characters of a value as a reader counts them: an emoji is one, not two UTF-16 units. */
export function characterCount(value: string): number {
  let count = 0;
  for (const _character of value) count++;
  return count;
}

/** The most characters a `string` or `text` field takes: the type's limit, lowered by a positive whole `options.maxLength`. */
export function maxLengthOf(field: { type: string; options?: Record<string, unknown> | undefined }): number | undefined {
  const limit = field.type === 'string' ? STRING_MAX_LENGTH : field.type === 'text' ? TEXT_MAX_LENGTH : undefined;
  if (limit === undefined) return undefined;
  const lowered = field.options?.maxLength;
  return typeof lowered === 'number' && Number.isInteger(lowered) && lowered > 0 && lowered < limit ? lowered : limit;
}

/** "1,000" rather than "1000", the same wherever the limit is said. */
export function formatLimit(limit: number): string {
  return String(limit).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function tooLongMessage(limit: number, length: number): string {
  return `Too long: at most ${formatLimit(limit)} characters (this has ${formatLimit(length)})`;
}

/** Said of a number that is not finite (JSON's 1e400 parses to Infinity). */
export const NOT_FINITE_MESSAGE = `Expected a finite number: at most ${Number.MAX_VALUE} either side of zero`;

/** True when a JSON value holds a number that is not finite anywhere inside it. Call after the depth check. */
export function holdsNonFiniteNumber(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'number' && !Number.isFinite(next)) return true;
    if (next !== null && typeof next === 'object') pending.push(...Object.values(next));
  }
  return false;
}
