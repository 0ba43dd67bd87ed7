// The offline embedder: feature hashing of words, word pairs and character 3-grams into a fixed-size,
// L2-normalised vector. Deterministic, no model to download; good enough to find items on the same topic.
import { type Embedder, normalize } from './embedder.js';

export const LOCAL_EMBEDDING_MODEL = 'local-hash-v1';
export const LOCAL_EMBEDDING_DIMS = 1024;

/** Words too common to say anything about a topic. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its ' +
    'just me more most my no not of on or our out over she so some such than that the their them then there these they ' +
    'this those to too up us very was we were what when where which while who why will with would you your yours about ' +
    'after all also am any because before being between both each few further here him himself itself let myself nor ' +
    'off once only other ought own same should through under until via whom'
  ).split(' '),
);

/** How much each kind of feature weighs: whole words say most, character 3-grams catch inflections and typos. */
const WORD_WEIGHT = 1;
const PAIR_WEIGHT = 0.6;
const GRAM_WEIGHT = 0.25;

/** Lowercase, compatibility-decomposed, accents dropped: `Café` and `cafe` are one word. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** Letters and digits runs of the normalised text, stop words and 1-character tokens dropped, light plural stemming. */
export function contentWords(text: string): string[] {
  const words: string[] = [];
  for (const match of normalizeText(text).matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = stem(match[0]);
    if (word.length > 1 && !STOP_WORDS.has(word)) words.push(word);
  }
  return words;
}

/**
 * A deliberately small stemmer: plural and common verb endings, then a final `e`, so `recipes`/`recipe` and
 * `bake`/`baked`/`baking` meet.
 */
function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let stemmed = word;
  if (stemmed.endsWith('ies') && stemmed.length > 4) stemmed = `${stemmed.slice(0, -3)}y`;
  else if (stemmed.endsWith('sses')) stemmed = stemmed.slice(0, -2);
  else if (stemmed.endsWith('ing') && stemmed.length > 5) stemmed = stemmed.slice(0, -3);
  else if (stemmed.endsWith('ed') && stemmed.length > 4) stemmed = stemmed.slice(0, -2);
  else if (stemmed.endsWith('s') && !stemmed.endsWith('ss') && !stemmed.endsWith('us')) stemmed = stemmed.slice(0, -1);
  if (stemmed.endsWith('e') && stemmed.length > 3) stemmed = stemmed.slice(0, -1);
  return stemmed;
}

/** 32-bit FNV-1a over the UTF-16 code units: stable across processes and platforms. */
function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export class LocalEmbedder implements Embedder {
  readonly model = LOCAL_EMBEDDING_MODEL;

  constructor(readonly dims: number = LOCAL_EMBEDDING_DIMS) {}

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map((text) => this.embedOne(text));
  }

  embedOne(text: string): Float32Array {
    const vector = new Float32Array(this.dims);
    const words = contentWords(text);
    for (let index = 0; index < words.length; index++) {
      const word = words[index] as string;
      this.add(vector, `w:${word}`, WORD_WEIGHT);
      const next = words[index + 1];
      if (next !== undefined) this.add(vector, `p:${word} ${next}`, PAIR_WEIGHT);
      const padded = `<${word}>`;
      for (let start = 0; start + 3 <= padded.length; start++) this.add(vector, `g:${padded.slice(start, start + 3)}`, GRAM_WEIGHT);
    }
    // Sublinear term frequency: a word repeated ten times does not outweigh the rest of the text.
    for (let index = 0; index < vector.length; index++) {
      const value = vector[index] as number;
      if (value !== 0) vector[index] = Math.sign(value) * Math.log1p(Math.abs(value));
    }
    return normalize(vector);
  }

  /** The signed hashing trick: a second hash picks the sign, so collisions cancel out on average. */
  private add(vector: Float32Array, feature: string, weight: number): void {
    const hash = fnv1a(feature);
    const slot = hash % this.dims;
    const sign = fnv1a(feature, 0x9747b28c) & 1 ? 1 : -1;
    vector[slot] = (vector[slot] as number) + sign * weight;
  }
}
