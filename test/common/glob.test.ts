import { fileGlobMatcher, hasWildcard, wildcardMatcher } from '../../src/common/glob';

describe('one glob engine, two dialects', () => {
  test.each([
    ['read_*', 'read_', true],
    ['read_*', 'read_file', true],
    ['read_*', 'write_file', false],
    ['*', '', true],
    ['a?c', 'abc', true],
    ['a?c', 'ac', false],
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'axb', false],
    // Only * and ? are special: brackets, braces, negation and extglobs are literal.
    ['[ab]', '[ab]', true],
    ['[ab]', 'a', false],
    ['{a,b}', 'a', false],
    ['!x', 'y', false],
    ['+(a)', '+(a)', true],
    ['*.env', '.env', true],
    ['git *', 'git push origin/main', false],
  ])('wildcard %p against %p → %p', (pattern, text, expected) => {
    expect(wildcardMatcher(pattern)(text)).toBe(expected);
  });

  test('across slashes, for command text', () => {
    expect(wildcardMatcher('git *', { acrossSlashes: true })('git push origin/main')).toBe(true);
    expect(wildcardMatcher('ls *', { acrossSlashes: true })('ls ../x')).toBe(true);
    expect(wildcardMatcher('echo \\*', { acrossSlashes: true })('echo x')).toBe(false);
  });

  test('hasWildcard ignores escaped stars', () => {
    expect([hasWildcard('a*'), hasWildcard('a?'), hasWildcard('a\\*'), hasWildcard('plain')]).toEqual([true, true, false, false]);
  });

  test.each([
    ['**/*.ts', 'src/deep/a.ts', true, true],
    ['*.{js,ts}', 'x.ts', true, true],
    ['[!ab].txt', 'b.txt', true, false],
    ['*', '.hidden', true, true],
    ['*', '.hidden', false, false],
    ['.*', '.hidden', false, true],
  ])('file glob %p against %p (dot %p) → %p', (pattern, path, dot, expected) => {
    expect(fileGlobMatcher(pattern, { dot })(path)).toBe(expected);
  });
});
