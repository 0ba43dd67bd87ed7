// A tool result the model reads is valid JSON always (docs/API.md, "What a model is given"): one too long
// is cut by whole entries of its longest list, keeping the paging fields (`total`, `limit`, `offset`)
// and saying how many entries were left out; a result with no list to cut says it was too long.

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The path of the longest list in `data` (itself, or one of its own properties), if any. */
function longestList(data: unknown): { key?: string; list: unknown[] } | undefined {
  if (Array.isArray(data)) return { list: data };
  if (!isRecord(data)) return undefined;
  let best: { key: string; list: unknown[] } | undefined;
  for (const [key, value] of Object.entries(data))
    if (Array.isArray(value) && (!best || JSON.stringify(value).length > JSON.stringify(best.list).length)) best = { key, list: value };
  return best;
}

/** `record.data` with its longest list cut to `keep` entries, and the count left out beside it. */
function cut(record: Json, found: { key?: string; list: unknown[] }, keep: number): Json {
  const omitted = found.list.length - keep;
  const note = { omitted, note: `${omitted} of ${found.list.length} entries left out; ask for fewer (limit/offset) to see them` };
  if (found.key === undefined) return { ...record, data: found.list.slice(0, keep), ...note };
  return { ...record, data: { ...(record.data as Json), [found.key]: found.list.slice(0, keep), ...note } };
}

export function fitToolContent(record: Json, max: number): string {
  const whole = JSON.stringify(record);
  if (whole.length <= max) return whole;
  const found = longestList(record.data);
  if (found && found.list.length > 0) {
    // The most entries that fit: a binary search over how many are kept.
    let low = 0;
    let high = found.list.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (JSON.stringify(cut(record, found, middle)).length <= max) low = middle;
      else high = middle - 1;
    }
    const text = JSON.stringify(cut(record, found, low));
    if (text.length <= max) return text;
  }
  const { data: _dropped, ...rest } = record;
  return JSON.stringify({ ...rest, truncated: true, note: `the result (${whole.length} characters) was too long to show` });
}
