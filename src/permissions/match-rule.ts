/**
 * Whether a rule covers a call. The same rule matches narrowly when it grants (allow and
 * session rules) and broadly when it restricts (deny and ask rules), so that every doubt
 * ends in a question or a refusal rather than a silent run.
 *
 * | pattern            | grant                                         | restrict (also)                          |
 * |--------------------|-----------------------------------------------|------------------------------------------|
 * | prefix `git:*`     | first words equal; no `;` `&` `|` `<` `>`     | any simple command of the line, without  |
 * |                    | backtick, `$(` or line break in the value     | quotes, `sudo`/`VAR=1`, program folder   |
 * | exact, `command`   | trimmed value equals                          | the same pieces, whitespace folded       |
 * | exact, other kinds | normalized paths equal                        | `..` folded lexically on both sides      |
 * | glob, `command`    | `*` spans anything; no control syntax         | the same pieces                          |
 * | glob, other kinds  | path glob (see path-glob)                     | the path with `..` folded lexically      |
 *
 * With no pattern kind, restrictive exact and glob rules try both the path and the command
 * reading. A rule with a pattern never matches a call that has no pattern value.
 */
import type { PatternKind } from '../common/permissions';
import { compilePathGlob, matchGlobSegments } from './path-glob';
import { joinSegments, normalizePath, pathSegments, resolveDotDot } from './path-segments';
import { parseRule, type PermissionRule, type RulePattern } from './rule';
import { commandWords, hasControlSyntax, restrictiveCandidates } from './shell-command';
import { wildcardMatcher } from '../common/glob';

export interface RuleTarget {
  toolName: string;
  /** The tool's main argument (a command, a path...), when it has one. */
  patternValue?: string;
  patternKind?: PatternKind;
}

/** `grant` for allow and session rules, `restrict` for deny and ask rules. */
export type MatchIntent = 'grant' | 'restrict';

export function matchRule(rule: PermissionRule | string, target: RuleTarget, intent: MatchIntent = 'grant'): boolean {
  const parsed = typeof rule === 'string' ? parseRule(rule) : rule;
  if (!matchToolName(parsed.tool, target.toolName)) return false;
  if (!parsed.pattern) return true;
  if (target.patternValue === undefined) return false;
  return intent === 'grant'
    ? grants(parsed.pattern, target.patternValue, target.patternKind)
    : restricts(parsed.pattern, target.patternValue, target.patternKind);
}

/** The first rule (as written) that matches; throws `PermissionRuleError` on a malformed rule. */
export function findMatchingRule(
  rules: readonly string[] | undefined,
  target: RuleTarget,
  intent: MatchIntent,
): string | undefined {
  return (rules ?? []).find((rule) => matchRule(rule, target, intent));
}

export function matchToolName(ruleTool: string, toolName: string): boolean {
  if (!/[*?]/.test(ruleTool)) return ruleTool === toolName;
  return wildcardMatcher(ruleTool)(toolName);
}

function grants(pattern: RulePattern, value: string, kind: PatternKind | undefined): boolean {
  switch (pattern.type) {
    case 'prefix':
      return !hasControlSyntax(value) && startsWithWords(commandWords(value), commandWords(pattern.prefix));
    case 'exact':
      return kind === 'command'
        ? value.trim() === pattern.value.trim()
        : normalizePath(value) === normalizePath(pattern.value);
    case 'glob':
      return kind === 'command'
        ? !hasControlSyntax(value) && wildcardMatcher(pattern.glob, { acrossSlashes: true })(value.trim())
        : matchGlobSegments(compilePathGlob(pattern.glob), pathSegments(value));
  }
}

function restricts(pattern: RulePattern, value: string, kind: PatternKind | undefined): boolean {
  if (pattern.type === 'prefix') {
    const prefix = commandWords(pattern.prefix);
    return restrictiveCandidates(value).some((words) => startsWithWords(words, prefix));
  }
  const asCommand = kind !== 'path' && restrictsCommand(pattern, value);
  const asPath = kind !== 'command' && restrictsPath(pattern, value);
  return asCommand || asPath;
}

function restrictsCommand(pattern: Exclude<RulePattern, { type: 'prefix' }>, value: string): boolean {
  const candidates = restrictiveCandidates(value).map((words) => words.join(' '));
  if (pattern.type === 'exact') {
    const expected = commandWords(pattern.value).join(' ');
    return candidates.includes(expected);
  }
  const matches = wildcardMatcher(commandWords(pattern.glob).join(' '), { acrossSlashes: true });
  return candidates.some(matches);
}

function restrictsPath(pattern: Exclude<RulePattern, { type: 'prefix' }>, value: string): boolean {
  const segments = pathSegments(value);
  const views = [segments, resolveDotDot(segments)];
  if (pattern.type === 'exact') {
    const expected = pathSegments(pattern.value);
    const targets = [joinSegments(expected), joinSegments(resolveDotDot(expected))];
    return views.some((view) => targets.includes(joinSegments(view)));
  }
  const glob = compilePathGlob(pattern.glob);
  return views.some((view) => matchGlobSegments(glob, view));
}

function startsWithWords(words: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length > 0 && prefix.length <= words.length && prefix.every((word, i) => words[i] === word);
}
