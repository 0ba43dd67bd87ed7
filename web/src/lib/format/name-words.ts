// Why a collection or field name is refused, in the one sentence that fits it: too long, or the wrong characters.
import { NAME_PATTERN } from '@lumibase/shared';

/** Names are at most 64 characters (`^[a-z][a-z0-9_]{0,63}$`). */
export const NAME_MAX_LENGTH = 64;

/** Undefined when the name is valid; else what to change, with an example of a good name. */
export function nameProblem(name: string, example: string): string | undefined {
  if (NAME_PATTERN.test(name)) return undefined;
  if (name.length > NAME_MAX_LENGTH && /^[a-z][a-z0-9_]*$/.test(name))
    return `Too long: ${name.length} characters, at most ${NAME_MAX_LENGTH} (e.g. ${example})`;
  const tooLong = name.length > NAME_MAX_LENGTH ? ` and at most ${NAME_MAX_LENGTH} characters` : '';
  return `Use lowercase letters, digits and _, starting with a letter${tooLong} (e.g. ${example})`;
}
