import type { PatternKind } from '../../src/common/permissions';
import { findMatchingRule, matchRule, type MatchIntent } from '../../src/permissions';

type Row = [rule: string, tool: string, value: string | undefined, expected: boolean];

const matches = (rule: string, tool: string, value: string | undefined, kind?: PatternKind, intent?: MatchIntent): boolean =>
  matchRule(rule, { toolName: tool, patternValue: value, patternKind: kind }, intent);

describe('tool names', () => {
  it.each<Row>([
    ['request_refund', 'request_refund', undefined, true],
    ['request_refund', 'request_refund', 'anything', true],
    ['request_refund', 'request_refunds', undefined, false],
    ['request_refund', 'Request_refund', undefined, false],
    ['*', 'request_refund', undefined, true],
    ['*', 'mcp__fs__read', 'x', true],
    ['mcp__fs__*', 'mcp__fs__read_file', undefined, true],
    ['mcp__fs__*', 'mcp__fsx__read_file', undefined, false],
    ['mcp__fs__*', 'mcp__git__log', undefined, false],
    ['mcp__*__read', 'mcp__fs__read', undefined, true],
    ['read_fil?', 'read_file', undefined, true],
    ['read_fil?', 'read_fi', undefined, false],
  ])('%s vs tool %s (%j) → %s', (rule, tool, value, expected) => {
    expect(matches(rule, tool, value)).toBe(expected);
  });

  it('a rule with a pattern never matches a call without a pattern value', () => {
    expect(matches('bash(git:*)', 'bash', undefined)).toBe(false);
    expect(matches('bash(git:*)', 'bash', undefined, 'command', 'restrict')).toBe(false);
  });

  it('accepts parsed rules as well as strings', () => {
    const rule = { tool: 'bash', pattern: { type: 'prefix', prefix: 'git' } } as const;
    expect(matchRule(rule, { toolName: 'bash', patternValue: 'git log' })).toBe(true);
    expect(matchRule(rule, { toolName: 'bash', patternValue: 'gitk' })).toBe(false);
  });
});

describe('prefix rules', () => {
  it.each<Row>([
    ['bash(git:*)', 'bash', 'git status', true],
    ['bash(git:*)', 'bash', 'git', true],
    ['bash(git:*)', 'bash', 'gitx', false],
    ['bash(git:*)', 'bash', 'gitx status', false],
    ['bash(git:*)', 'bash', 'git\tstatus', true],
    ['bash(git:*)', 'bash', '  git status  ', true],
    ['bash(git:*)', 'bash', 'sudo git status', false],
    ['bash(git:*)', 'other', 'git status', false],
    ['bash(git push:*)', 'bash', 'git push origin main', true],
    ['bash(git push:*)', 'bash', 'git  push', true],
    ['bash(git push:*)', 'bash', 'git pushx', false],
    ['bash(git push:*)', 'bash', 'git status', false],
    ['bash(git push:*)', 'bash', 'git', false],
  ])('%s vs %j → %s', (rule, tool, value, expected) => {
    expect(matches(rule, tool, value, 'command')).toBe(expected);
    expect(matches(rule, tool, value)).toBe(expected);
  });

  it.each([
    'git status; rm -rf /',
    'git status && curl x | sh',
    'git status || true',
    'git log > ~/.bashrc',
    'git log < x',
    'git status &',
    'git $(rm -rf /)',
    'git `rm -rf /`',
    'git status\nrm -rf /',
  ])('an allow prefix rule does not cover the compound command %j', (value) => {
    expect(matches('bash(git:*)', 'bash', value, 'command', 'grant')).toBe(false);
  });

  it.each<[string, boolean]>([
    ['rm -rf /', true],
    ['ls && rm -rf /', true],
    ['ls; rm -rf /', true],
    ['echo $(rm x)', true],
    ['ls | xargs rm', true],
    ['sudo rm -rf /', true],
    ['FOO=1 rm x', true],
    ['/bin/rm -rf x', true],
    ['"rm" -rf x', true],
    ['(rm x)', true],
    ['if rm x; then echo; fi', true],
    ['rmdir x', false],
    ['echo rm', false],
    ['ls -la', false],
  ])('a deny prefix rule bash(rm:*) looks inside %j → %s', (value, expected) => {
    expect(matches('bash(rm:*)', 'bash', value, 'command', 'restrict')).toBe(expected);
  });
});

describe('exact rules', () => {
  it.each<[string, string, PatternKind | undefined, boolean]>([
    ['bash(npm test)', 'npm test', 'command', true],
    ['bash(npm test)', ' npm test ', 'command', true],
    ['bash(npm test)', 'npm test -- --watch', 'command', false],
    ['bash(npm test)', 'npm testx', 'command', false],
    ['bash(npm test)', 'npm', 'command', false],
    ['bash(deploy.sh)', './deploy.sh', 'command', false],
    ['bash(npm test && rm -rf /)', 'npm test && rm -rf /', 'command', true],
    ['read_file(src/a.ts)', 'src/a.ts', 'path', true],
    ['read_file(src/a.ts)', './src//a.ts', 'path', true],
    ['read_file(./src/a.ts)', 'src/a.ts', undefined, true],
    ['read_file(src/a.ts)', 'src/b/../a.ts', 'path', false],
    ['read_file(src/a.ts)', 'src/a.tsx', 'path', false],
    ['read_file(/)', '.', 'path', false],
    ['bash(ls \\*.ts)', 'ls *.ts', 'command', true],
    ['bash(ls \\*.ts)', 'ls a.ts', 'command', false],
  ])('%s vs %j (%s) → %s', (rule, value, kind, expected) => {
    expect(matches(rule, rule.slice(0, rule.indexOf('(')), value, kind, 'grant')).toBe(expected);
  });

  it.each<[string, string, PatternKind | undefined, boolean]>([
    ['bash(rm -rf /)', 'ls; rm  -rf /', 'command', true],
    ['bash(rm -rf /)', 'rm -rf /tmp', 'command', false],
    ['read_file(secret.txt)', 'src/../secret.txt', 'path', true],
    ['read_file(secret.txt)', 'src/../secret.txt', undefined, true],
    ['read_file(secret.txt)', 'src/secret.txt', 'path', false],
  ])('restrictive %s vs %j (%s) → %s', (rule, value, kind, expected) => {
    expect(matches(rule, rule.slice(0, rule.indexOf('(')), value, kind, 'restrict')).toBe(expected);
  });
});

describe('glob rules over paths', () => {
  it.each<[string, string, boolean]>([
    ['src/**', 'src/a.ts', true],
    ['src/**', 'src/a/b/c.ts', true],
    ['src/**', 'src', true],
    ['src/**', './src/a.ts', true],
    ['src/**', 'src//a//b.ts', true],
    ['src/**', 'src/./a.ts', true],
    ['src/**', 'src/.env', true],
    ['src/**', 'srcx/a.ts', false],
    ['src/**', 'test/a.ts', false],
    ['src/**', '/src/a.ts', false],
    ['src/**', 'src/../secret', false],
    ['src/**', 'src/a/../../secret', false],
    ['src/**', 'src/a/../b.ts', false],
    ['./src/**', 'src/a.ts', true],
    ['src/*', 'src/a.ts', true],
    ['src/*', 'src/a/b.ts', false],
    ['src/*', 'src/..', false],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/a.tsx', false],
    ['src/*.ts', 'src/a/b.ts', false],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/a/b/c.ts', true],
    ['src/**/*.ts', 'src/a/b/c.js', false],
    ['src/?.ts', 'src/a.ts', true],
    ['src/?.ts', 'src/ab.ts', false],
    ['src/?.ts', 'src/.ts', false],
    ['**', 'a/b/c', true],
    ['**', '../etc/passwd', false],
    ['**', '/etc/passwd', false],
    ['**', '~/.ssh/id_rsa', false],
    ['/etc/**', '/etc/hosts', true],
    ['/etc/**', 'etc/hosts', false],
    ['/**', '/etc/hosts', true],
    ['~/notes/**', '~/notes/a.md', true],
    ['src/../**', 'src/../x', true],
    ['a\\*/**', 'a*/x', true],
    ['a\\*/**', 'ab/x', false],
  ])('read_file(%s) vs %j → %s', (glob, value, expected) => {
    expect(matches(`read_file(${glob})`, 'read_file', value, 'path', 'grant')).toBe(expected);
    expect(matches(`read_file(${glob})`, 'read_file', value, undefined, 'grant')).toBe(expected);
  });

  it.each<[string, string, boolean]>([
    ['secret/**', 'src/../secret/key', true],
    ['secret/**', './secret//key', true],
    ['secret/**', 'public/key', false],
    ['/etc/**', '/tmp/../etc/passwd', true],
  ])('restrictive read_file(%s) vs %j → %s', (glob, value, expected) => {
    expect(matches(`read_file(${glob})`, 'read_file', value, 'path', 'restrict')).toBe(expected);
  });
});

describe('glob rules over commands', () => {
  it.each<[string, string, MatchIntent, boolean]>([
    ['npm run *', 'npm run build', 'grant', true],
    ['npm run *', 'npm run build/all --x', 'grant', true],
    ['npm run *', 'npm test', 'grant', false],
    ['npm run *', 'npm run build; rm -rf /', 'grant', false],
    ['rm -rf *', 'ls && rm -rf /', 'restrict', true],
    ['rm -rf *', 'ls -rf x', 'restrict', false],
  ])('bash(%s) vs %j (%s) → %s', (glob, value, intent, expected) => {
    expect(matches(`bash(${glob})`, 'bash', value, 'command', intent)).toBe(expected);
  });
});

describe('findMatchingRule', () => {
  const target = { toolName: 'bash', patternValue: 'git push', patternKind: 'command' as const };

  it('returns the first matching rule as written', () => {
    expect(findMatchingRule(['read_file', ' bash(git:*)', 'bash'], target, 'grant')).toBe(' bash(git:*)');
  });

  it('returns undefined when nothing matches or there are no rules', () => {
    expect(findMatchingRule(['bash(npm:*)'], target, 'grant')).toBeUndefined();
    expect(findMatchingRule(undefined, target, 'grant')).toBeUndefined();
  });

  it('throws on a malformed rule, naming it', () => {
    expect(() => findMatchingRule(['bash(git:*'], target, 'grant')).toThrow("Invalid permission rule 'bash(git:*'");
  });
});
