// How close a search hit is, in words instead of percentages: under a floor a hit is not shown at all (nonsense finds
// nothing), between the floor and CLOSE it is shown as "loosely related", above it is a match. The same rule for the
// navigation's search box and the Copilot's search answers.
import { type CollectionView, SIMILARITY_CLOSE, SIMILARITY_FLOOR } from '@lumibase/shared';

export { SIMILARITY_CLOSE, SIMILARITY_FLOOR };

export type Closeness = 'match' | 'loose';

export function closenessOf(score: number): Closeness | undefined {
  if (!(score >= SIMILARITY_FLOOR)) return undefined;
  return score >= SIMILARITY_CLOSE ? 'match' : 'loose';
}

/** The hits worth showing, matches first, each with its closeness. */
export function relevantHits<Hit extends { score: number }>(hits: readonly Hit[]): (Hit & { closeness: Closeness })[] {
  const shown = hits.flatMap((hit) => {
    const closeness = closenessOf(hit.score);
    return closeness ? [{ ...hit, closeness }] : [];
  });
  return [...shown.filter((hit) => hit.closeness === 'match'), ...shown.filter((hit) => hit.closeness === 'loose')];
}

/** "2 matches", "2 matches, 1 loosely related", "No matches; 3 loosely related", "No matches". */
export function hitsSummary(hits: readonly { closeness: Closeness }[]): string {
  const matches = hits.filter((hit) => hit.closeness === 'match').length;
  const loose = hits.length - matches;
  const head = matches === 0 ? 'No matches' : matches === 1 ? '1 match' : `${matches} matches`;
  return loose > 0 ? `${head}${matches === 0 ? ';' : ','} ${loose} loosely related` : head;
}

/** A collection as editors know it: its label, else its name. */
export function collectionLabel(name: string, collections: readonly Pick<CollectionView, 'name' | 'label'>[] | undefined): string {
  return collections?.find((collection) => collection.name === name)?.label || name;
}
