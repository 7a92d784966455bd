import { closest, distance } from 'fastest-levenshtein';

/** ` Did you mean 'X'?` when one of `known` is a plausible typo of `given`, else ''. */
export function didYouMean(given: string, known: string[], prefix = ''): string {
  if (known.length === 0) return '';
  const best = closest(given, known);
  // A swapped pair of letters is two edits; very short names tolerate one.
  const allowed = best.length <= 3 ? 1 : Math.max(2, Math.floor(best.length / 3));
  return distance(given, best) <= allowed ? ` Did you mean '${prefix}${best}'?` : '';
}
