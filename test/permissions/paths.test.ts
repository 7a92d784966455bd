import { matchPathGlob, normalizePath } from '../../src/permissions';

describe('normalizePath', () => {
  it.each([
    ['src/a.ts', 'src/a.ts'],
    ['./src/a.ts', 'src/a.ts'],
    ['././src/a.ts', 'src/a.ts'],
    ['src//a///b', 'src/a/b'],
    ['src/./a', 'src/a'],
    ['src/', 'src'],
    ['/etc//hosts', '/etc/hosts'],
    ['//etc', '/etc'],
    ['/', '/'],
    ['.', '.'],
    ['./', '.'],
    ['', '.'],
    ['src/../secret', 'src/../secret'],
    ['../a', '../a'],
  ])('%j → %j', (path, expected) => {
    expect(normalizePath(path)).toBe(expected);
  });
});

describe('matchPathGlob', () => {
  it.each<[string, string, boolean]>([
    ['src/**', 'src/a/b', true],
    ['src/**', 'src/../b', false],
    ['src/*/x', 'src/a/x', true],
    ['src/*/x', 'src/a/b/x', false],
    ['**/*.md', 'docs/a.md', true],
    ['**/*.md', 'a.md', true],
    ['**/*.md', '../a.md', false],
  ])('%s vs %j → %s', (glob, path, expected) => {
    expect(matchPathGlob(glob, path)).toBe(expected);
  });
});
