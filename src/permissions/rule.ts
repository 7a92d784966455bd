/**
 * Permission rules as strings, parsed and formatted.
 *
 *   request_refund      every call of the tool
 *   *                   every call of every tool
 *   mcp__fs__*          every call of every tool whose name matches (`*` any run, `?` one char)
 *   bash(git:*)         the pattern value's first words are `git` (prefix rule)
 *   bash(npm test)      the pattern value is exactly `npm test` (exact rule)
 *   read_file(src/**)   the pattern value matches the glob (glob rule)
 *
 * Inside the parentheses `\*`, `\?` and `\\` stand for the literal characters; any other
 * backslash is an error. A pattern with an unescaped `*` or `?` is a glob, except a final
 * `:*`, which makes a prefix rule (and then no other wildcard may appear).
 */

export type RulePattern =
  | { type: 'exact'; value: string }
  | { type: 'prefix'; prefix: string }
  /** `glob` keeps the rule's source text, escapes included. */
  | { type: 'glob'; glob: string };

export interface PermissionRule {
  /** An exact tool name or a tool-name glob; `*` is every tool. */
  tool: string;
  /** Without a pattern the rule matches every call of the tool. */
  pattern?: RulePattern;
}

export class PermissionRuleError extends Error {
  readonly rule: string;

  constructor(rule: string, problem: string) {
    super(`Invalid permission rule '${rule}': ${problem}`);
    this.name = 'PermissionRuleError';
    this.rule = rule;
  }
}

export type ParseRuleResult = { ok: true; rule: PermissionRule } | { ok: false; error: string };

const ESCAPABLE = new Set(['*', '?', '\\']);

/** Parses one rule; throws `PermissionRuleError` naming the rule when it is malformed. */
export function parseRule(text: string): PermissionRule {
  const fail = (problem: string): never => {
    throw new PermissionRuleError(text, problem);
  };
  const source = text.trim();
  if (source === '') fail('the rule is empty');

  const open = source.indexOf('(');
  const toolPart = open === -1 ? source : source.slice(0, open);
  if (toolPart === '') fail("missing tool name before '('");
  if (/\s/.test(toolPart)) fail(`tool name '${toolPart}' must not contain whitespace`);
  if (toolPart.includes(')')) fail("unexpected ')' without a matching '('");
  if (toolPart.includes('\\')) fail('tool name must not contain a backslash');
  if (open === -1) return { tool: toolPart };

  if (!source.endsWith(')')) {
    fail(source.indexOf(')', open) === -1 ? "missing closing ')'" : "unexpected text after ')'");
  }
  const body = source.slice(open + 1, -1);
  if (body.trim() === '') fail(`empty pattern in '${toolPart}()'; write '${toolPart}' to match every call`);
  return { tool: toolPart, pattern: parsePattern(body, fail) };
}

export function tryParseRule(text: string): ParseRuleResult {
  try {
    return { ok: true, rule: parseRule(text) };
  } catch (error) {
    if (error instanceof PermissionRuleError) return { ok: false, error: error.message };
    throw error;
  }
}

/** The canonical string of a rule; `parseRule(formatRule(r))` gives back `r`. */
export function formatRule(rule: PermissionRule): string {
  const { pattern } = rule;
  if (!pattern) return rule.tool;
  switch (pattern.type) {
    case 'exact':
      return `${rule.tool}(${escapePattern(pattern.value)})`;
    case 'prefix':
      return `${rule.tool}(${escapePattern(pattern.prefix)}:*)`;
    case 'glob':
      return `${rule.tool}(${pattern.glob})`;
  }
}

/** Escapes text so that it is read literally inside a rule's parentheses. */
export function escapePattern(text: string): string {
  return text.replace(/[\\*?]/g, (char) => `\\${char}`);
}

function parsePattern(body: string, fail: (problem: string) => never): RulePattern {
  let literal = '';
  let wildcards = 0;
  for (let i = 0; i < body.length; i++) {
    const char = body[i];
    if (char === '\\') {
      const next = body[i + 1];
      if (next === undefined || !ESCAPABLE.has(next)) {
        fail(`invalid escape '\\${next ?? ''}' (only \\*, \\? and \\\\ are allowed)`);
      }
      literal += next;
      i++;
    } else {
      if (char === '*' || char === '?') wildcards++;
      literal += char;
    }
  }

  // `\:` is not a valid escape, so a final `:*` is never escaped.
  if (body.endsWith(':*')) {
    if (wildcards > 1) fail('a prefix rule (ending in :*) must not contain other wildcards');
    const prefix = literal.slice(0, -2);
    if (prefix.trim() === '') fail("empty prefix before ':*'");
    return { type: 'prefix', prefix };
  }
  if (wildcards > 0) return { type: 'glob', glob: body };
  return { type: 'exact', value: literal };
}
