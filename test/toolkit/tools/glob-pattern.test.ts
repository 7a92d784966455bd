import { checkGlobPattern, filePatternMatcher } from '../../../src/toolkit/tools/files/glob-pattern';

describe('filePatternMatcher', () => {
  test.each([
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/a.ts', false],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'src/deep/a.ts', true],
    ['src/**', 'src/a/b.txt', true],
    ['src/**/test/*.ts', 'src/test/a.ts', true],
    ['src/**/test/*.ts', 'src/x/y/test/a.ts', true],
    ['?.md', 'a.md', true],
    ['?.md', 'ab.md', false],
    ['[ab].txt', 'b.txt', true],
    ['[!ab].txt', 'b.txt', false],
    ['*.{js,ts}', 'x.ts', true],
    ['*.{js,ts}', 'x.tsx', false],
    ['a+b(1).txt', 'a+b(1).txt', true],
    ['.env*', '.env.local', true],
  ])('%s against %s → %s', (glob, candidate, expected) => {
    expect(filePatternMatcher(glob)(candidate)).toBe(expected);
  });

  test('patterns that climb out or are absolute are refused', () => {
    expect(() => checkGlobPattern('../x/*')).toThrow();
    expect(() => checkGlobPattern('a/../../x')).toThrow();
    expect(() => checkGlobPattern('/etc/*')).toThrow();
    expect(() => checkGlobPattern('src/**/*.ts')).not.toThrow();
  });
});
