/**
 * Path globs: `*` and `?` stay within one segment, a `**` segment spans zero or more whole
 * segments. Both the glob and the path are normalized first (see path-segments). Wildcards
 * match dot-files, but never `..`, the root of an absolute path or a leading `~`: `src/**`
 * does not match `src/../secret`, `**` does not match `/etc/passwd`.
 */
import { hasWildcard, wildcardMatcher } from '../common/glob';
import { isWildcardSegment, pathSegments } from './path-segments';

/**
 * The walk over segments is ours, because it holds the safety rules above; within a segment the
 * project's glob engine matches.
 */
export type GlobSegment =
  | { type: 'globstar' }
  | { type: 'literal'; text: string }
  | { type: 'wildcard'; matches: (segment: string) => boolean };

function unescaped(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}

export function compilePathGlob(glob: string): GlobSegment[] {
  return pathSegments(glob).map((segment): GlobSegment => {
    if (/^\*{2,}$/.test(segment)) return { type: 'globstar' };
    if (hasWildcard(segment)) return { type: 'wildcard', matches: wildcardMatcher(segment) };
    return { type: 'literal', text: unescaped(segment) };
  });
}

export function matchPathGlob(glob: string, path: string): boolean {
  return matchGlobSegments(compilePathGlob(glob), pathSegments(path));
}

export function matchGlobSegments(glob: readonly GlobSegment[], segments: readonly string[]): boolean {
  // memo[g * (segments.length + 1) + s]: 0 unknown, 1 match, 2 no match.
  const memo = new Uint8Array((glob.length + 1) * (segments.length + 1));
  const matchFrom = (g: number, s: number): boolean => {
    const key = g * (segments.length + 1) + s;
    if (memo[key] !== 0) return memo[key] === 1;
    const result = matchStep(g, s);
    memo[key] = result ? 1 : 2;
    return result;
  };
  const matchStep = (g: number, s: number): boolean => {
    const part = glob[g];
    if (part === undefined) return s === segments.length;
    if (part.type === 'globstar') {
      if (matchFrom(g + 1, s)) return true;
      return s < segments.length && isWildcardSegment(segments[s], s) && matchFrom(g, s + 1);
    }
    if (s >= segments.length) return false;
    const segment = segments[s];
    const matched =
      part.type === 'literal'
        ? part.text === segment
        : isWildcardSegment(segment, s) && part.matches(segment);
    return matched && matchFrom(g + 1, s + 1);
  };
  return matchFrom(0, 0);
}
