// Canonical JSON: one text per value whatever its key order. The audit chain hashes it (docs/API.md), approval
// targets and impacts are compared by it, and the Studio compares item data and field options by it.

/**
 * JSON with object keys sorted (by UTF-16 code units), built as text so that no key (`__proto__`
 * included) is ever assigned onto an object. Undefined members are left out, as JSON.stringify does;
 * undefined array elements, non-finite numbers and undefined itself are `null`.
 *
 * The audit's hashes cover this text: changing what it produces breaks every chain already written.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) return `[${value.map((element) => (element === undefined ? 'null' : canonicalJson(element))).join(',')}]`;
  const keys = Object.keys(value).sort();
  const members: string[] = [];
  for (const key of keys) {
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined) continue;
    members.push(`${JSON.stringify(key)}:${canonicalJson(member)}`);
  }
  return `{${members.join(',')}}`;
}
