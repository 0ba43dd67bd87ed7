// Extractive text for the echo mode of aiContentAssist: leading sentences and title-like phrases, cut at word bounds.

/** Markdown and HTML marks that would look odd in a summary or a title. */
function plain(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/[*_`~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The sentences of `text`, in order (a sentence ends at . ! ? or … followed by a space, or at the end). */
export function sentencesOf(text: string): string[] {
  return plain(text)
    .split(/(?<=[.!?…])\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}

/** `text` cut to at most `max` characters at a word boundary, with … when something was cut. */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, Math.max(1, max - 1));
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** The leading sentences of `text` that fit in `max` characters (at least the first, cut when it alone is longer). */
export function leadSentences(text: string, max: number): string {
  const sentences = sentencesOf(text);
  let summary = '';
  for (const sentence of sentences) {
    const next = summary ? `${summary} ${sentence}` : sentence;
    if (next.length > max) break;
    summary = next;
  }
  return summary || cutAtWord(sentences[0] ?? '', max);
}

const HEADLINE_WORDS = 10;

/** A title-like phrase: the first sentence's first words, without closing punctuation, its first letter upper case. */
export function headlineOf(text: string, max: number): string {
  const first = sentencesOf(text)[0] ?? '';
  const words = first.split(' ').slice(0, HEADLINE_WORDS).join(' ');
  const phrase = cutAtWord(words, max).replace(/[.!?…,;:]+$/, '');
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}

/** "Write a catchy title about lemon tarts" → "lemon tarts": the request's wording around its topic dropped. */
export function topicOf(instruction: string): string {
  const topic = instruction
    .trim()
    .replace(
      /^(?:please\s+)?(?:write|suggest|draft|give|make|create|generate|propose|add|set|fill in|come up with)\s+(?:me\s+|us\s+)?(?:(?:a|an|the|some)\s+)?(?:[\p{L}-]+\s+){0,2}?(?:title|headline|name|summary|description|text|intro|introduction|tagline|caption|label|value|excerpt|teaser)\s+(?:about|for|on|of|describing)\s+/iu,
      '',
    );
  return topic || instruction.trim();
}
