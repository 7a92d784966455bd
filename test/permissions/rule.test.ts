import { formatRule, parseRule, PermissionRuleError, tryParseRule, type PermissionRule } from '../../src/permissions';

describe('parseRule', () => {
  it.each<[string, PermissionRule]>([
    ['request_refund', { tool: 'request_refund' }],
    ['  request_refund  ', { tool: 'request_refund' }],
    ['*', { tool: '*' }],
    ['mcp__fs__*', { tool: 'mcp__fs__*' }],
    ['bash(git:*)', { tool: 'bash', pattern: { type: 'prefix', prefix: 'git' } }],
    ['bash(git push:*)', { tool: 'bash', pattern: { type: 'prefix', prefix: 'git push' } }],
    ['bash(npm run test:unit:*)', { tool: 'bash', pattern: { type: 'prefix', prefix: 'npm run test:unit' } }],
    ['bash(npm test)', { tool: 'bash', pattern: { type: 'exact', value: 'npm test' } }],
    ['bash(echo (a))', { tool: 'bash', pattern: { type: 'exact', value: 'echo (a)' } }],
    ['read_file(src/**)', { tool: 'read_file', pattern: { type: 'glob', glob: 'src/**' } }],
    ['read_file(src/?.ts)', { tool: 'read_file', pattern: { type: 'glob', glob: 'src/?.ts' } }],
    ['*(src/**)', { tool: '*', pattern: { type: 'glob', glob: 'src/**' } }],
    ['bash(echo a:\\*)', { tool: 'bash', pattern: { type: 'exact', value: 'echo a:*' } }],
    ['bash(ls \\*.ts)', { tool: 'bash', pattern: { type: 'exact', value: 'ls *.ts' } }],
    ['bash(a\\\\b)', { tool: 'bash', pattern: { type: 'exact', value: 'a\\b' } }],
    ['bash(rm \\*:*)', { tool: 'bash', pattern: { type: 'prefix', prefix: 'rm *' } }],
    ['read_file(a\\*/**)', { tool: 'read_file', pattern: { type: 'glob', glob: 'a\\*/**' } }],
  ])('%s', (text, expected) => {
    expect(parseRule(text)).toEqual(expected);
  });

  it.each([
    ['', 'the rule is empty'],
    ['   ', 'the rule is empty'],
    ['bash(git:*', "missing closing ')'"],
    ['bash(a)b', "unexpected text after ')'"],
    ['bash)', "unexpected ')'"],
    ['(git:*)', 'missing tool name'],
    ['bash()', 'empty pattern'],
    ['bash(  )', 'empty pattern'],
    ['bash(:*)', "empty prefix before ':*'"],
    ['bash( :*)', "empty prefix before ':*'"],
    ['ba sh', 'must not contain whitespace'],
    ['bash (git:*)', 'must not contain whitespace'],
    ['bash(a\\b)', "invalid escape '\\b'"],
    ['bash(a\\)', "invalid escape '\\'"],
    ['bash(g*t:*)', 'must not contain other wildcards'],
  ])('rejects %j with a message naming the rule', (text, problem) => {
    let caught: unknown;
    try {
      parseRule(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PermissionRuleError);
    const error = caught as PermissionRuleError;
    expect(error.name).toBe('PermissionRuleError');
    expect(error.rule).toBe(text);
    expect(error.message).toContain(`'${text}'`);
    expect(error.message).toContain(problem);
  });
});

describe('tryParseRule', () => {
  it('returns the rule or the message instead of throwing', () => {
    const rule = { tool: 'bash', pattern: { type: 'prefix', prefix: 'git' } };
    expect(tryParseRule('bash(git:*)')).toEqual({ ok: true, rule });
    expect(tryParseRule('bash(')).toEqual({ ok: false, error: "Invalid permission rule 'bash(': missing closing ')'" });
  });
});

describe('formatRule', () => {
  it.each<[PermissionRule, string]>([
    [{ tool: 'request_refund' }, 'request_refund'],
    [{ tool: 'bash', pattern: { type: 'prefix', prefix: 'git push' } }, 'bash(git push:*)'],
    [{ tool: 'bash', pattern: { type: 'exact', value: 'npm test' } }, 'bash(npm test)'],
    [{ tool: 'bash', pattern: { type: 'exact', value: 'echo a:*' } }, 'bash(echo a:\\*)'],
    [{ tool: 'bash', pattern: { type: 'exact', value: 'ls ?.ts a\\b' } }, 'bash(ls \\?.ts a\\\\b)'],
    [{ tool: 'read_file', pattern: { type: 'glob', glob: 'src/**' } }, 'read_file(src/**)'],
  ])('%j → %s', (rule, text) => {
    expect(formatRule(rule)).toBe(text);
    expect(parseRule(text)).toEqual(rule);
  });

  it.each(['*', 'mcp__fs__*', 'bash(git:*)', 'bash(npm test)', 'read_file(src/**)', 'bash(echo a:\\*)', 'x(a\\\\b\\?)'])(
    'round-trips %s',
    (text) => {
      expect(formatRule(parseRule(text))).toBe(text);
    },
  );
});
