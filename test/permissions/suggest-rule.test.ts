import type { PatternKind } from '../../src/common/permissions';
import { matchRule, parseRule, suggestRule } from '../../src/permissions';

const COMMANDS: [string, string][] = [
  ['git status', 'bash(git status:*)'],
  ['git push origin main', 'bash(git push:*)'],
  ['  git   log --oneline ', 'bash(git log:*)'],
  ['npm test', 'bash(npm test:*)'],
  ['npm run build -- --ci', 'bash(npm run build:*)'],
  ['pnpm run test:unit', 'bash(pnpm run test:unit:*)'],
  ['npm run', 'bash(npm run:*)'],
  ['docker compose up -d', 'bash(docker compose:*)'],
  ['ls -la src', 'bash(ls:*)'],
  ['ls', 'bash(ls:*)'],
  ['./deploy.sh prod', 'bash(./deploy.sh:*)'],
  ['cat *.ts', 'bash(cat:*)'],
  ['git -C other status', 'bash(git -C other status)'],
  ['git', 'bash(git)'],
  ['python script.py', 'bash(python script.py)'],
  ['sudo apt install x', 'bash(sudo apt install x)'],
  ['xargs rm', 'bash(xargs rm)'],
  ['FOO=1 npm test', 'bash(FOO=1 npm test)'],
  ['git status && rm -rf /', 'bash(git status && rm -rf /)'],
  ['ls *.ts | wc -l', 'bash(ls \\*.ts | wc -l)'],
  ['echo (a) > out.txt', 'bash(echo (a) > out.txt)'],
];

const PATHS: [string, string][] = [
  ['src/app/main.ts', 'read_file(src/app/**)'],
  ['./src//main.ts', 'read_file(src/**)'],
  ['/etc/hosts', 'read_file(/etc/**)'],
  ['~/notes/a.md', 'read_file(~/notes/**)'],
  ['a*b/c.txt', 'read_file(a\\*b/**)'],
  ['README.md', 'read_file(README.md)'],
  ['./README.md', 'read_file(README.md)'],
  ['/vmlinuz', 'read_file(/vmlinuz)'],
  ['src/../secret.txt', 'read_file(src/../secret.txt)'],
];

describe('suggestRule for commands', () => {
  it.each(COMMANDS)('%j → %s', (command, expected) => {
    expect(suggestRule('bash', command, 'command')).toBe(expected);
  });
});

describe('suggestRule for paths', () => {
  it.each(PATHS)('%j → %s', (path, expected) => {
    expect(suggestRule('read_file', path, 'path')).toBe(expected);
  });
});

describe('suggestRule without a usable pattern', () => {
  it.each<[string | undefined, PatternKind | undefined]>([
    [undefined, undefined],
    [undefined, 'command'],
    ['git status', undefined],
    ['', 'path'],
    ['   ', 'command'],
  ])('value %j, kind %s → the bare tool name', (value, kind) => {
    expect(suggestRule('request_refund', value, kind)).toBe('request_refund');
  });
});

describe('a suggested rule allows the call it was suggested for', () => {
  it.each([
    ...COMMANDS.map(([value]) => ['bash', value, 'command'] as const),
    ...PATHS.map(([value]) => ['read_file', value, 'path'] as const),
    ['request_refund', undefined, undefined] as const,
  ])('%s %j', (tool, value, kind) => {
    const rule = suggestRule(tool, value, kind);
    expect(() => parseRule(rule)).not.toThrow();
    expect(matchRule(rule, { toolName: tool, patternValue: value, patternKind: kind }, 'grant')).toBe(true);
  });
});

describe('a suggested rule stays narrow', () => {
  it.each<[string, PatternKind, string]>([
    ['git push origin', 'command', 'git reset --hard'],
    ['npm run build', 'command', 'npm run deploy'],
    ['python script.py', 'command', 'python -c "import os"'],
    ['ls -la', 'command', 'ls; rm -rf /'],
    ['src/app/main.ts', 'path', 'src/secret.ts'],
    ['src/app/main.ts', 'path', 'src/app/../../secret.ts'],
    ['README.md', 'path', 'secret.txt'],
  ])('the rule for %j does not allow %j', (value, kind, other) => {
    const tool = kind === 'command' ? 'bash' : 'read_file';
    const rule = suggestRule(tool, value, kind);
    expect(matchRule(rule, { toolName: tool, patternValue: other, patternKind: kind }, 'grant')).toBe(false);
  });
});
