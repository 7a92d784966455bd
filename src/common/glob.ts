import picomatch from 'picomatch/posix';

/**
 * The project's one glob engine: picomatch (its posix build, which touches nothing of the host, so
 * the permission engine stays sandbox-safe), in two dialects.
 *
 * - Wildcards (`wildcardMatcher`): only `*` (any run of characters, also none) and `?` (one
 *   character) are special, `\` escapes; brackets, braces, `!` and extglobs are literal. Tool names,
 *   tool filters, permission rule patterns and the segments of permission path rules use them.
 *   With `acrossSlashes`, `*` also crosses `/` (command text: `git *` matches `git push origin/main`).
 * - File globs (`fileGlobMatcher`): `**` any number of folders, `*` `?` within one name, `[abc]`,
 *   `[!abc]`, `{a,b}`: the file tools' patterns and shell glob expansion. `dot: false` is the shell's
 *   rule (a leading dot only matches a pattern with one).
 */

const WILDCARDS = { dot: true, literalBrackets: true, nobrace: true, noextglob: true, nonegate: true, noquantifiers: true } as const;

export function wildcardMatcher(pattern: string, options: { acrossSlashes?: boolean } = {}): (text: string) => boolean {
  // picomatch's `bash` dialect lets a single star cross slashes; empty text matches only an empty or all-star pattern.
  const match = picomatch(pattern, { ...WILDCARDS, ...(options.acrossSlashes ? { bash: true } : {}) });
  const emptyMatches = /^\**$/.test(pattern);
  return (text) => (text === '' ? emptyMatches : match(text));
}

/** Whether a pattern has an unescaped `*` or `?`, so it is a wildcard and not a literal. */
export function hasWildcard(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === '*' || pattern[i] === '?') return true;
  }
  return false;
}

export function fileGlobMatcher(pattern: string, options: { dot: boolean }): (path: string) => boolean {
  return picomatch(pattern, { dot: options.dot, posix: true });
}
