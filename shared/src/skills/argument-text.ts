// The arguments a skill's sentence names: only non-empty strings, since the model may have produced anything.

/** The value when it is a non-empty string, else undefined (the sentence is then left out). */
export function argumentText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
