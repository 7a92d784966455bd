import { canonicalJson, shortJson } from './canonical-json';

/**
 * What an argument must be, as a suite writes it:
 * - a string written `/pattern/flags` is a regular expression the value (as text) must match;
 * - `{ includes: 'text' }`: the value, as text (JSON for non-strings), contains it;
 * - a plain object: the value is an object whose listed keys match, each by these same rules (other keys are free);
 * - anything else (strings, numbers, booleans, null, arrays): equal to the value.
 */
export type ArgMatcher = unknown;

/** Matchers of a call's arguments, by name (an object matcher over the input). */
export type ArgsMatcher = Record<string, ArgMatcher>;

const REGEX = /^\/(.+)\/([dgimsuy]*)$/s;

export function regexOf(text: string): RegExp | undefined {
  const match = REGEX.exec(text);
  if (!match) return undefined;
  return new RegExp(match[1]!, match[2]!.replace('g', ''));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIncludes(matcher: unknown): matcher is { includes: string } {
  return isPlainObject(matcher) && Object.keys(matcher).length === 1 && typeof matcher.includes === 'string';
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : canonicalJson(value);
}

/** Problems of a suite's matchers (a regular expression that does not compile), as `path: why`. */
export function matcherProblems(matcher: ArgMatcher, path: string): string[] {
  if (typeof matcher === 'string' && REGEX.test(matcher)) {
    try {
      regexOf(matcher);
      return [];
    } catch (error) {
      return [`${path}: ${matcher} is not a regular expression: ${(error as Error).message}`];
    }
  }
  if (isPlainObject(matcher) && !isIncludes(matcher)) return Object.entries(matcher).flatMap(([key, inner]) => matcherProblems(inner, `${path}.${key}`));
  return [];
}

/** Why the value does not fit the matcher (`at` names where), or undefined when it does. */
export function mismatch(matcher: ArgMatcher, value: unknown, at = 'input'): string | undefined {
  if (typeof matcher === 'string') {
    const regex = regexOf(matcher);
    if (regex) return typeof value !== 'undefined' && regex.test(asText(value)) ? undefined : `${at} is ${shortJson(value)}, which does not match ${matcher}`;
  }
  if (isIncludes(matcher)) {
    return value !== undefined && asText(value).includes(matcher.includes) ? undefined : `${at} is ${shortJson(value)}, which does not include ${JSON.stringify(matcher.includes)}`;
  }
  if (isPlainObject(matcher)) {
    if (!isPlainObject(value)) return `${at} is ${shortJson(value)}, not an object`;
    for (const [key, inner] of Object.entries(matcher)) {
      const problem = mismatch(inner, value[key], `${at}.${key}`);
      if (problem) return problem;
    }
    return undefined;
  }
  return canonicalJson(matcher) === canonicalJson(value) ? undefined : `${at} is ${shortJson(value)}, not ${shortJson(matcher)}`;
}

export function matches(matcher: ArgMatcher | undefined, value: unknown): boolean {
  return matcher === undefined || mismatch(matcher, value) === undefined;
}

/** A matcher as a report shows it. */
export function describeMatcher(matcher: ArgMatcher): string {
  return shortJson(matcher);
}
