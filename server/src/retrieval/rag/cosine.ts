// Cosine similarity of two vectors of one embedder; 0 when either is zero (a blank text has no direction).

export function cosine(a: Float32Array, b: Float32Array): number {
  const length = Math.min(a.length, b.length);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < length; index++) {
    const x = a[index] as number;
    const y = b[index] as number;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  if (normA === 0 || normB === 0) return 0;
  return Math.max(-1, Math.min(1, dot / Math.sqrt(normA * normB)));
}

/** Rounded for answers: four decimals say enough. */
export function roundScore(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}
