// Field names made from an admin's words, and kept clear of the names a collection already has.
import { NAME_PATTERN } from '@lumibase/shared';

const NAME_MAX = 64;
const WORDS_MAX = 3;

/** Words that say nothing about what a field holds. */
const STOP_WORDS = new Set(
  (
    'a an the and or of for to in on at by with from into about as is are be was were it its this that these those which who whom ' +
    'what when where how each every any all some our your their my we you they i me us them field fields column value values ' +
    'store stores stored storing hold holds keep keeps save saves add adding need needs want wants should would could can must ' +
    'please new like e g eg etc item items entry entries record records one'
  ).split(' '),
);

/** Up to three meaningful words of `description` in snake_case, or undefined when none is left. */
export function deriveFieldName(description: string): string | undefined {
  const words = description
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !STOP_WORDS.has(word));
  // A name starts with a letter: leading words that start with a digit ("3d", "2024") are dropped.
  while (words.length > 0 && !/^[a-z]/.test(words[0] as string)) words.shift();
  const name = words
    .slice(0, WORDS_MAX)
    .join('_')
    .slice(0, NAME_MAX - 4)
    .replace(/_+$/, '');
  return NAME_PATTERN.test(name) ? name : undefined;
}

/** `base` when free, else `base_2`, `base_3`, … (cut so the result stays a valid name). */
export function uniqueFieldName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix++) {
    const tail = `_${suffix}`;
    const name = `${base.slice(0, NAME_MAX - tail.length)}${tail}`;
    if (!taken.has(name)) return name;
  }
}
