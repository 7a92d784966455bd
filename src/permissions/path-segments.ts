/**
 * Lexical path handling for rule patterns. Nothing here touches a file system: `..` is kept
 * as a segment (a symlink may sit before it), `.` segments and repeated or trailing slashes
 * are dropped. An absolute path starts with the empty root segment `''`.
 */

export function pathSegments(path: string): string[] {
  if (path === '') return [];
  const parts = path.split('/');
  const segments: string[] = [];
  parts.forEach((part, index) => {
    if (part === '' && index === 0) segments.push('');
    else if (part !== '' && part !== '.') segments.push(part);
  });
  return segments;
}

export function joinSegments(segments: readonly string[]): string {
  if (segments.length === 0) return '.';
  if (segments.length === 1 && segments[0] === '') return '/';
  return segments.join('/');
}

/** `./src//a/` → `src/a`; `src/../x` stays as it is. */
export function normalizePath(path: string): string {
  return joinSegments(pathSegments(path));
}

/**
 * Folds `x/..` pairs, as a shell would for a path without symlinks: `src/../secret` →
 * `secret`. Used only to make restrictive rules match more, never to grant.
 */
export function resolveDotDot(segments: readonly string[]): string[] {
  const resolved: string[] = [];
  for (const segment of segments) {
    if (segment !== '..') {
      resolved.push(segment);
      continue;
    }
    const last = resolved[resolved.length - 1];
    if (last === undefined || last === '..') resolved.push('..');
    // `/..` is `/`: the root segment ('' only ever comes first) stays.
    else if (last !== '') resolved.pop();
  }
  return resolved;
}

/**
 * Whether a wildcard may match this segment. Wildcards stay inside the relative tree: they
 * never match `..`, the root of an absolute path, or a leading `~` (a home folder).
 */
export function isWildcardSegment(segment: string, index: number): boolean {
  if (segment === '..') return false;
  if (index === 0 && (segment === '' || segment.startsWith('~'))) return false;
  return true;
}
