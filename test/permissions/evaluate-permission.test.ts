import type {
  PermissionBehavior,
  PermissionDecision,
  PermissionMode,
  PermissionSettings,
} from '../../src/common/permissions';
import {
  DONT_ASK_REASON,
  EXPLORE_DENY_REASON,
  evaluatePermission,
  PermissionRuleError,
  type PermissionRequest,
  type PermissionToolInfo,
} from '../../src/permissions';

const bash: PermissionToolInfo = {
  name: 'bash',
  readOnly: false,
  edits: false,
  patternValue: 'git push origin',
  patternKind: 'command',
};
const readFile: PermissionToolInfo = { name: 'read_file', readOnly: true, patternValue: 'src/a.ts', patternKind: 'path' };
const writeFile: PermissionToolInfo = { ...readFile, name: 'write_file', readOnly: false, edits: true };
const refund: PermissionToolInfo = { name: 'request_refund', readOnly: false, edits: false };

const safetyAsk: PermissionDecision = { behavior: 'ask', reason: 'rm of / needs a person', safety: true };
const safetyDeny: PermissionDecision = { behavior: 'deny', reason: 'writes outside the workspace', safety: true };
const toolAsk: PermissionDecision = { behavior: 'ask', reason: 'refunds over 100 need approval' };
const toolDeny: PermissionDecision = { behavior: 'deny', reason: 'order is closed' };
const toolAllow: PermissionDecision = { behavior: 'allow', reason: 'small refund' };

const allow = (reason: string): PermissionDecision => ({ behavior: 'allow', reason });
const deny = (reason: string): PermissionDecision => ({ behavior: 'deny', reason });

function evaluate(
  tool: PermissionToolInfo,
  settings: PermissionSettings = {},
  extra: Partial<Omit<PermissionRequest, 'tool' | 'settings'>> = {},
): PermissionDecision {
  return evaluatePermission({ tool, settings, sessionRules: [], ...extra });
}

describe('a. deny rules', () => {
  it.each<[string, PermissionToolInfo, PermissionSettings, Partial<PermissionRequest>]>([
    ['an ask rule', bash, { deny: ['bash(git push:*)'], ask: ['bash'] }, {}],
    ['a safety ask', bash, { deny: ['bash(git push:*)'] }, { toolDecision: safetyAsk }],
    ['explore mode on a read-only tool', readFile, { mode: 'explore', deny: ['read_file(src/**)'] }, {}],
    ['accept_edits mode', writeFile, { mode: 'accept_edits', deny: ['write_file'] }, {}],
    ['the tool allowing', refund, { deny: ['request_refund'] }, { toolDecision: toolAllow }],
    ['an allow rule', bash, { deny: ['bash(git push:*)'], allow: ['bash'] }, {}],
    ['a session rule', bash, { deny: ['bash(git push:*)'] }, { sessionRules: ['bash'] }],
    ['bypass mode', bash, { mode: 'bypass', deny: ['bash(git push:*)'] }, {}],
  ])('win over %s', (_, tool, settings, extra) => {
    expect(evaluate(tool, settings, extra)).toEqual(deny(`matched deny rule '${settings.deny![0]}'`));
  });

  it('match only what they name', () => {
    expect(evaluate(bash, { deny: ['bash(rm:*)', 'read_file'] }).behavior).toBe('allow');
  });

  it('look inside compound commands', () => {
    const tool = { ...bash, patternValue: 'ls && rm -rf build' };
    expect(evaluate(tool, { deny: ['bash(rm:*)'], allow: ['bash'] })).toEqual(deny("matched deny rule 'bash(rm:*)'"));
  });

  it('see through .. in paths', () => {
    const tool = { ...readFile, patternValue: 'src/../secret/key' };
    expect(evaluate(tool, { deny: ['read_file(secret/**)'], allow: ['read_file'] }).behavior).toBe('deny');
  });
});

describe('b. ask rules', () => {
  it('ask, naming the rule, with a suggested rule a person can remember', () => {
    expect(evaluate(refund, { ask: ['request_refund'] })).toEqual({
      behavior: 'ask',
      reason: "request_refund requires approval (ask rule 'request_refund')",
      suggestedRule: 'request_refund',
      rememberable: true,
    });
  });

  it('yield to a session rule: the person already answered for this run', () => {
    expect(evaluate(bash, { ask: ['bash(git:*)'] }, { sessionRules: ['bash(git push:*)'] })).toEqual({
      behavior: 'allow',
      reason: "matched session rule 'bash(git push:*)'",
    });
  });

  it.each<[string, PermissionToolInfo, PermissionSettings, Partial<PermissionRequest>]>([
    ['the tool allowing', refund, { ask: ['request_refund'] }, { toolDecision: toolAllow }],
    ['explore mode on a read-only tool', readFile, { mode: 'explore', ask: ['read_file'] }, {}],
    ['accept_edits mode', writeFile, { mode: 'accept_edits', ask: ['write_file'] }, {}],
    ['an allow rule', bash, { ask: ['bash(git:*)'], allow: ['bash'] }, {}],
    ['bypass mode', bash, { mode: 'bypass', ask: ['bash(git:*)'] }, {}],
  ])('win over %s', (_, tool, settings, extra) => {
    const decision = evaluate(tool, settings, extra);
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toContain(`ask rule '${settings.ask![0]}'`);
  });

  it('look inside compound commands, unlike allow rules', () => {
    const tool = { ...bash, patternValue: 'ls && git push --force' };
    expect(evaluate(tool, { ask: ['bash(git push:*)'], allow: ['bash(ls:*)'] }).behavior).toBe('ask');
  });

  it('match patterns', () => {
    expect(evaluate(bash, { ask: ['bash(git push:*)'] }).behavior).toBe('ask');
    expect(evaluate({ ...bash, patternValue: 'git status' }, { ask: ['bash(git push:*)'] }).behavior).toBe('allow');
  });
});

describe('c. safety checks of the tool', () => {
  it('a safety ask is final and keeps the tool reason', () => {
    expect(evaluate(bash, {}, { toolDecision: safetyAsk })).toEqual({
      behavior: 'ask',
      reason: 'rm of / needs a person',
      safety: true,
      suggestedRule: 'bash(git push:*)',
      rememberable: false,
    });
  });

  it.each<[string, PermissionToolInfo, PermissionSettings, string[]]>([
    ['bypass mode', bash, { mode: 'bypass' }, []],
    ['allow rules', bash, { allow: ['*', 'bash', 'bash(git:*)'] }, []],
    ['session rules', bash, {}, ['bash(git push:*)', '*']],
    ['accept_edits mode', writeFile, { mode: 'accept_edits' }, []],
    ['explore mode on a read-only tool', readFile, { mode: 'explore' }, []],
    ['everything at once', writeFile, { mode: 'bypass', allow: ['*'], default: 'allow' }, ['*']],
  ])('a safety ask is not overridden by %s', (_, tool, settings, sessionRules) => {
    const decision = evaluate(tool, settings, { toolDecision: safetyAsk, sessionRules });
    expect(decision).toMatchObject({ behavior: 'ask', safety: true, reason: safetyAsk.reason });
  });

  it.each<[string, PermissionSettings]>([
    ['bypass mode', { mode: 'bypass' }],
    ['allow rules', { allow: ['bash'] }],
    ['accept_edits mode', { mode: 'accept_edits' }],
  ])('a safety deny is not overridden by %s', (_, settings) => {
    expect(evaluate(writeFile, settings, { toolDecision: safetyDeny, sessionRules: ['*'] })).toEqual({
      behavior: 'deny',
      reason: 'writes outside the workspace',
      safety: true,
    });
  });

  it('a safety allow is an ordinary allow (step e), so explore mode still denies a writing tool', () => {
    const toolDecision: PermissionDecision = { behavior: 'allow', reason: 'ok', safety: true };
    expect(evaluate(writeFile, { mode: 'explore' }, { toolDecision })).toEqual(deny(EXPLORE_DENY_REASON));
  });
});

describe('d. modes', () => {
  it.each<[PermissionMode, PermissionToolInfo, PermissionDecision | undefined, PermissionDecision]>([
    ['explore', readFile, undefined, { behavior: 'allow', reason: 'explore mode allows read-only tools' }],
    ['explore', readFile, toolAsk, { behavior: 'allow', reason: 'explore mode allows read-only tools' }],
    ['explore', writeFile, undefined, { behavior: 'deny', reason: EXPLORE_DENY_REASON }],
    ['explore', bash, toolAllow, { behavior: 'deny', reason: EXPLORE_DENY_REASON }],
    ['explore', refund, undefined, { behavior: 'deny', reason: EXPLORE_DENY_REASON }],
    ['accept_edits', readFile, undefined, { behavior: 'allow', reason: 'accept_edits mode allows read-only tools' }],
    ['accept_edits', writeFile, toolAsk, { behavior: 'allow', reason: 'accept_edits mode allows file-editing tools' }],
    ['accept_edits', refund, toolAsk, { ...toolAsk, suggestedRule: 'request_refund', rememberable: true }],
    ['default', writeFile, toolAsk, { ...toolAsk, suggestedRule: 'write_file(src/**)', rememberable: true }],
  ])('%s mode, %j, tool check %j', (mode, tool, toolDecision, expected) => {
    expect(evaluate(tool, { mode, default: 'deny' }, { toolDecision })).toEqual(expected);
  });

  it('explore mode denies a writing tool even with allow rules, session rules and default allow', () => {
    expect(evaluate(writeFile, { mode: 'explore', allow: ['*'], default: 'allow' }, { sessionRules: ['*'] })).toEqual({
      behavior: 'deny',
      reason: EXPLORE_DENY_REASON,
    });
  });

  it('accept_edits mode leaves other tools to the rest of the order', () => {
    expect(evaluate(bash, { mode: 'accept_edits', default: 'ask' }).behavior).toBe('ask');
    expect(evaluate(bash, { mode: 'accept_edits', default: 'ask', allow: ['bash(git:*)'] }).behavior).toBe('allow');
  });
});

describe("e. the tool's own check", () => {
  it.each<[string, PermissionSettings, string[]]>([
    ['allow rules', { allow: ['*'] }, []],
    ['session rules', {}, ['request_refund']],
    ['bypass mode', { mode: 'bypass' }, []],
  ])('its deny is final over %s', (_, settings, sessionRules) => {
    expect(evaluate(refund, settings, { toolDecision: toolDeny, sessionRules })).toEqual(deny('order is closed'));
  });

  it.each<[PermissionBehavior, PermissionMode]>([
    ['ask', 'default'],
    ['deny', 'default'],
    ['ask', 'dont_ask'],
  ])('its allow is final over default %s in %s mode', (fallback, mode) => {
    expect(evaluate(refund, { default: fallback, mode }, { toolDecision: toolAllow })).toEqual(allow('small refund'));
  });

  it('an empty reason is replaced by a readable one', () => {
    expect(evaluate(refund, {}, { toolDecision: { behavior: 'deny', reason: '' } }).reason).toBe(
      "request_refund's own permission check returned deny",
    );
  });

  it.each<[string, PermissionSettings, string[], string]>([
    ['an allow rule', { allow: ['request_refund'] }, [], "matched allow rule 'request_refund'"],
    ['a session rule', {}, ['request_refund'], "matched session rule 'request_refund'"],
    ['bypass mode', { mode: 'bypass' }, [], 'bypass mode allows every call'],
  ])('its non-safety ask is overridden by %s', (_, settings, sessionRules, reason) => {
    expect(evaluate(refund, settings, { toolDecision: toolAsk, sessionRules })).toEqual({ behavior: 'allow', reason });
  });

  it('its non-safety ask stands when nothing overrides it, even with default allow', () => {
    expect(evaluate(refund, { default: 'allow' }, { toolDecision: toolAsk })).toEqual({
      behavior: 'ask',
      reason: toolAsk.reason,
      suggestedRule: 'request_refund',
      rememberable: true,
    });
  });
});

describe('f. allow rules, i. session rules', () => {
  it('session rules only answer an ASK: they never lift a default deny', () => {
    expect(evaluate(bash, { default: 'deny' }, { sessionRules: ['bash'] }).behavior).toBe('deny');
    expect(evaluate(bash, { default: 'ask' }, { sessionRules: ['bash'] }).behavior).toBe('allow');
  });

  it('settings.allow is checked before session rules', () => {
    expect(evaluate(bash, { default: 'deny', allow: ['bash(git:*)'] }, { sessionRules: ['bash'] }).reason).toBe(
      "matched allow rule 'bash(git:*)'",
    );
  });

  it.each<[string, PermissionToolInfo, string[], PermissionSettings['default']]>([
    ['prefix rule', bash, ['bash(git push:*)'], 'deny'],
    ['tool-name glob', { ...refund, name: 'mcp__shop__refund' }, ['mcp__shop__*'], 'ask'],
    ['path glob', readFile, ['read_file(src/**)'], 'deny'],
    ['every tool', refund, ['*'], 'ask'],
  ])('a %s allows over default %s', (_, tool, allow, fallback) => {
    expect(evaluate(tool, { default: fallback, allow }).behavior).toBe('allow');
    expect(evaluate(tool, { default: 'ask' }, { sessionRules: allow }).behavior).toBe('allow');
  });

  it.each<[string, PermissionToolInfo, string]>([
    ['a compound command', { ...bash, patternValue: 'git push; rm -rf /' }, 'bash(git:*)'],
    ['a .. path', { ...readFile, patternValue: 'src/../secret' }, 'read_file(src/**)'],
    ['an absolute path', { ...readFile, patternValue: '/etc/passwd' }, 'read_file(**)'],
    ['a call without a pattern value', { ...bash, patternValue: undefined }, 'bash(git:*)'],
  ])('do not allow %s', (_, tool, rule) => {
    expect(evaluate(tool, { default: 'deny', allow: [rule] }).behavior).toBe('deny');
  });
});

describe('g. bypass mode', () => {
  it.each<PermissionSettings['default']>(['ask', 'deny'])('allows over default %s', (fallback) => {
    expect(evaluate(bash, { mode: 'bypass', default: fallback })).toEqual(allow('bypass mode allows every call'));
  });
});

describe('h. default', () => {
  it('is allow when unset, even when unrelated rules exist', () => {
    expect(evaluate(refund)).toEqual({ behavior: 'allow', reason: 'no rule matched and the default is allow' });
    expect(evaluate(refund, { allow: ['bash(git:*)'], ask: ['read_file'], deny: ['write_file'] }).behavior).toBe('allow');
  });

  it('ask asks with a rememberable suggestion', () => {
    expect(evaluate(bash, { default: 'ask' })).toEqual({
      behavior: 'ask',
      reason: 'bash requires approval (no rule matched and the default is ask)',
      suggestedRule: 'bash(git push:*)',
      rememberable: true,
    });
  });

  it('deny denies', () => {
    expect(evaluate(bash, { default: 'deny' })).toEqual(deny('no rule matched and the default is deny'));
  });
});

describe('i. dont_ask mode', () => {
  it.each<[string, PermissionToolInfo, PermissionSettings, PermissionDecision | undefined, string, boolean]>([
    ['an ask rule', refund, { ask: ['request_refund'] }, undefined, "request_refund requires approval (ask rule 'request_refund')", false],
    ['a safety ask', bash, {}, safetyAsk, safetyAsk.reason, true],
    ["the tool's ask", refund, {}, toolAsk, toolAsk.reason, false],
    ['default ask', bash, { default: 'ask' }, undefined, 'bash requires approval (no rule matched and the default is ask)', false],
  ])('turns %s into a deny', (_, tool, settings, toolDecision, askReason, safety) => {
    const decision = evaluate(tool, { ...settings, mode: 'dont_ask' }, { toolDecision });
    const expected = deny(`${DONT_ASK_REASON} (${askReason})`);
    expect(decision).toEqual(safety ? { ...expected, safety: true } : expected);
    expect(decision.reason.startsWith(DONT_ASK_REASON)).toBe(true);
  });

  it('leaves allows and denies alone', () => {
    expect(evaluate(bash, { mode: 'dont_ask' })).toEqual(allow('no rule matched and the default is allow'));
    const remembered = { toolDecision: toolAsk, sessionRules: ['request_refund'] };
    expect(evaluate(refund, { mode: 'dont_ask', default: 'ask' }, remembered).behavior).toBe('allow');
    expect(evaluate(bash, { mode: 'dont_ask', deny: ['bash'] })).toEqual(deny("matched deny rule 'bash'"));
    expect(evaluate(bash, { mode: 'dont_ask' }, { toolDecision: safetyDeny })).toEqual({ ...safetyDeny });
  });
});

describe('every ask', () => {
  const asks: [string, PermissionRequest][] = [
    ['ask rule', { tool: bash, settings: { ask: ['bash(git:*)'] }, sessionRules: [] }],
    ['safety ask', { tool: bash, settings: {}, toolDecision: safetyAsk, sessionRules: [] }],
    ['tool ask', { tool: bash, settings: {}, toolDecision: toolAsk, sessionRules: [] }],
    ['default ask on a path', { tool: writeFile, settings: { default: 'ask' }, sessionRules: [] }],
    ['default ask without a pattern', { tool: refund, settings: { default: 'ask' }, sessionRules: [] }],
    [
      'default ask on a compound command',
      { tool: { ...bash, patternValue: 'git push && rm x' }, settings: { default: 'ask' }, sessionRules: [] },
    ],
  ];

  it.each(asks)('%s: has a reason, a suggested rule, and rememberable tells whether remembering it works', (_, request) => {
    const decision = evaluatePermission(request);
    expect(decision.behavior).toBe('ask');
    expect(decision.reason.length).toBeGreaterThan(0);
    expect(typeof decision.suggestedRule).toBe('string');
    expect(typeof decision.rememberable).toBe('boolean');
    const next = evaluatePermission({ ...request, sessionRules: [decision.suggestedRule!] });
    expect(next.behavior === 'allow').toBe(decision.rememberable);
  });
});

describe('malformed rules', () => {
  it.each<'allow' | 'ask' | 'deny'>(['deny', 'ask', 'allow'])('in %s throw PermissionRuleError', (list) => {
    expect(() => evaluate(bash, { [list]: ['bash(git:*'] })).toThrow(PermissionRuleError);
    expect(() => evaluate(bash, { [list]: ['bash(git:*'] })).toThrow("Invalid permission rule 'bash(git:*'");
  });

  it('in session rules throw PermissionRuleError', () => {
    expect(() => evaluate(bash, { default: 'ask' }, { sessionRules: ['bash()'] })).toThrow(PermissionRuleError);
  });
});

describe('purity', () => {
  it('gives the same decision for the same request and does not mutate it', () => {
    const settings: PermissionSettings = { default: 'ask', allow: ['read_file'] };
    const request: PermissionRequest = { tool: bash, settings, sessionRules: ['x'] };
    const copy = JSON.parse(JSON.stringify(request));
    expect(evaluatePermission(request)).toEqual(evaluatePermission(request));
    expect(request).toEqual(copy);
  });
});
