/**
 * Wildcards over one string: `*` any run of characters (also none), `?` exactly one
 * character, `\*` `\?` `\\` literal. No character is special otherwise (not even `/`).
 */

export type WildcardToken = { type: 'char'; char: string } | { type: 'star' } | { type: 'one' };

export function tokenizeWildcard(pattern: string): WildcardToken[] {
  const tokens: WildcardToken[] = [];
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    if (char === '\\' && i + 1 < chars.length) {
      tokens.push({ type: 'char', char: chars[++i] });
    } else if (char === '*') {
      if (tokens[tokens.length - 1]?.type !== 'star') tokens.push({ type: 'star' });
    } else if (char === '?') {
      tokens.push({ type: 'one' });
    } else {
      tokens.push({ type: 'char', char });
    }
  }
  return tokens;
}

export function hasWildcard(tokens: readonly WildcardToken[]): boolean {
  return tokens.some((token) => token.type !== 'char');
}

/** Greedy match with backtracking to the last star: linear in practice, O(n·m) at worst. */
export function matchWildcard(tokens: readonly WildcardToken[], text: string): boolean {
  const chars = Array.from(text);
  let t = 0;
  let c = 0;
  let starToken = -1;
  let starChar = 0;
  while (c < chars.length) {
    const token = tokens[t];
    if (token !== undefined && (token.type === 'one' || (token.type === 'char' && token.char === chars[c]))) {
      t++;
      c++;
    } else if (token !== undefined && token.type === 'star') {
      starToken = t++;
      starChar = c;
    } else if (starToken !== -1) {
      t = starToken + 1;
      c = ++starChar;
    } else {
      return false;
    }
  }
  while (tokens[t]?.type === 'star') t++;
  return t === tokens.length;
}
