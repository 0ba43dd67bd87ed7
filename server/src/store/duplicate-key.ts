// Recognises MongoDB's E11000: unique indexes are how the stores detect duplicates without a race.

export function isDuplicateKeyError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}
