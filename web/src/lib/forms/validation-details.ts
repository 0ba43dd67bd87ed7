// Puts the API's 400 `details` next to the inputs they are about (`data.title` → the title input); the rest goes on top of the form.
import type { ErrorDetail } from '@lumibase/shared';

export interface MappedDetails {
  /** Messages by input key. */
  fields: Record<string, string[]>;
  /** Messages that belong to no input of the form. */
  general: string[];
}

/**
 * `prefix` is the body path the form's inputs live under (`data` for items). An input key may be
 * dotted (`options.values`); the longest key that the path starts with wins, so nested paths
 * such as `data.meta.tags.0` land on their field.
 */
export function mapDetails(
  details: readonly ErrorDetail[],
  { prefix, inputs }: { prefix?: string; inputs: readonly string[] },
): MappedDetails {
  const mapped: MappedDetails = { fields: {}, general: [] };
  const byLength = [...inputs].sort((a, b) => b.length - a.length);
  for (const detail of details) {
    const rest = stripPrefix(detail.path, prefix);
    const input = rest === undefined ? undefined : byLength.find((key) => rest === key || rest.startsWith(`${key}.`));
    if (input !== undefined) {
      const messages = mapped.fields[input] ?? [];
      messages.push(detail.message);
      mapped.fields[input] = messages;
    } else {
      mapped.general.push(detail.path ? `${detail.path}: ${detail.message}` : detail.message);
    }
  }
  return mapped;
}

function stripPrefix(path: string, prefix: string | undefined): string | undefined {
  if (!prefix) return path;
  if (path === prefix) return '';
  return path.startsWith(`${prefix}.`) ? path.slice(prefix.length + 1) : undefined;
}
