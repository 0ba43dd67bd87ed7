// Numbers typed the way the reader writes them: "12,50" is 12.5 where a comma marks decimals, "1,250" is 1250 where it
// groups thousands; what could be read two ways, or is not a finite number, is refused in words, never guessed.

export type ParsedNumber = { ok: true; value: number } | { ok: false; message: string };

interface Separators {
  decimal: string;
  group: string;
}

/** The browser's language, or English where there is none (tests in Node). */
export function userLocale(): string {
  return typeof navigator !== 'undefined' && navigator.language ? navigator.language : 'en-US';
}

export function separatorsOf(locale: string): Separators {
  let parts: Intl.NumberFormatPart[];
  try {
    parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
  } catch {
    parts = new Intl.NumberFormat('en-US').formatToParts(12345.6);
  }
  const decimal = parts.find((part) => part.type === 'decimal')?.value ?? '.';
  const group = parts.find((part) => part.type === 'group')?.value ?? ',';
  return { decimal, group };
}

const SPACES = /[\s\u00a0\u202f\u2009]/g;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The largest magnitude a number field takes, as the refusal says it. */
const LARGEST = '1.8 × 10³⁰⁸';

function finite(value: number): ParsedNumber {
  return Number.isFinite(value)
    ? { ok: true, value }
    : { ok: false, message: `This number is too large: numbers go up to about ${LARGEST}` };
}

/**
 * `text` as a number in `locale`: digits with the locale's decimal mark and, optionally, its thousands groups (spaces
 * too); or the scientific form with a point (2.5e3). A mark the locale does not use where it cannot be a group (e.g.
 * "12,50" in English) is refused with the number written the locale's way.
 */
export function parseLocaleNumber(text: string, locale: string = userLocale()): ParsedNumber {
  const { decimal, group } = separatorsOf(locale);
  const compact = text.trim().replace(/^[−–]/, '-');
  const scientific = compact.replace(SPACES, '');
  if (/^[+-]?(\d+\.?\d*|\.\d+)e[+-]?\d+$/i.test(scientific)) return finite(Number(scientific));

  const groupIsSpace = group.replace(SPACES, '') === '';
  const cleaned = groupIsSpace ? compact.replace(SPACES, '') : compact;
  const sign = /^[+-]/.test(cleaned) ? cleaned[0] : '';
  const body = sign ? cleaned.slice(1) : cleaned;
  const d = escapeRegExp(decimal);
  const g = groupIsSpace ? '' : escapeRegExp(group);
  const plain = new RegExp(`^(\\d+)(?:${d}(\\d*))?$|^${d}(\\d+)$`);
  const grouped = g ? new RegExp(`^(\\d{1,3}(?:${g}\\d{3})+)(?:${d}(\\d+))?$`) : undefined;

  const read = (whole: string, fraction: string | undefined) =>
    finite(Number(`${sign === '-' ? '-' : ''}${whole || '0'}.${fraction || '0'}`));
  const plainMatch = plain.exec(body);
  if (plainMatch) return read(plainMatch[1] ?? '', plainMatch[2] ?? plainMatch[3]);
  const groupedMatch = grouped?.exec(body);
  if (groupedMatch) return read((groupedMatch[1] ?? '').split(group).join(''), groupedMatch[2]);

  // The other mark where it can only be a decimal mark: said back the way this locale writes it.
  const other = decimal === ',' ? '.' : ',';
  const foreign = new RegExp(`^(\\d+)${escapeRegExp(other)}(\\d+)$`).exec(body);
  if (foreign) {
    const suggestion = `${sign}${foreign[1]}${decimal}${foreign[2]}`;
    return { ok: false, message: `Write decimals with ${decimal === ',' ? 'a comma' : 'a point'}: ${suggestion}` };
  }
  if (/^[+-]?[\d.,\s\u00a0\u202f\u2009]+$/.test(compact) && /\d/.test(compact)) {
    const example = `1${group === ' ' || groupIsSpace ? ' ' : group}234${decimal}5`;
    return { ok: false, message: `Enter a number the way you write one here, such as ${example}` };
  }
  return { ok: false, message: 'Enter a number' };
}

/** A stored number as its input shows it in `locale`: every digit kept (never rounded), the locale's decimal mark. */
export function formatNumberForInput(value: number, locale: string = userLocale()): string {
  const text = String(value);
  if (/e/i.test(text)) return text;
  const { decimal } = separatorsOf(locale);
  return decimal === '.' ? text : text.replace('.', decimal);
}
