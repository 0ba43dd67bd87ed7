// How deeply a stored JSON value may nest: item `json` values and field `options` alike (docs/API.md, Content).

export const MAX_JSON_DEPTH = 64;
export const JSON_DEPTH_MESSAGE = `must not nest deeper than ${MAX_JSON_DEPTH} levels`;

/**
 * True when `value` nests more than `limit` levels: a scalar is 0 levels, `{}` and `[]` are 1, and
 * each object or array inside adds one. Iterative, and it stops at the first level past the limit:
 * a value 100,000 levels deep fits in a 256 kB body, and every recursive walk after this check
 * (the JSON codec, BSON) would overflow the stack on it.
 */
export function exceedsJsonDepth(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next.value === null || typeof next.value !== 'object') continue;
    const depth = next.depth + 1;
    if (depth > limit) return true;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth });
  }
  return false;
}
