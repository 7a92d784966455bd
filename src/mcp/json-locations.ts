import { findNodeAtLocation, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';

/**
 * Strict JSON with positions, for tools.json errors that point at the line and column: the tree
 * (and the first syntax error) from jsonc-parser with comments and trailing commas refused; the
 * value from JSON.parse, so it is exactly what JSON means.
 */

export type JsonPath = ReadonlyArray<string | number>;

export interface JsonLocation {
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

export class JsonSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
    readonly location: JsonLocation,
  ) {
    super(`${reason} (line ${location.line}, column ${location.column})`);
    this.name = 'JsonSyntaxError';
  }
}

export interface LocatedJson {
  value: unknown;
  /** Where the value at `path` starts, or its nearest ancestor that exists. */
  locate(path: JsonPath): JsonLocation;
}

export function offsetToLocation(text: string, offset: number): JsonLocation {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

const EXPECTED: Record<string, string> = {
  ColonExpected: "Expected ':' after property name",
  PropertyNameExpected: 'Expected a property name in double quotes',
  ValueExpected: 'Expected a JSON value',
};

/** The bracket of the object or array the offset is in (outside strings), if any. */
function enclosing(text: string, offset: number): '{' | '[' | undefined {
  const open: string[] = [];
  let inString = false;
  for (let i = 0; i < offset; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') open.push(c);
    else if (c === '}' || c === ']') open.pop();
  }
  return open.at(-1) as '{' | '[' | undefined;
}

/** The first syntax error in words a person fixes it by, and where it is. */
function describe(text: string, error: ParseError): { reason: string; offset: number } {
  const code = printParseErrorCode(error.error);
  const { offset } = error;
  const at = text[offset];
  const found = at === undefined ? 'end of input' : `token ${JSON.stringify(at)}`;
  const before = text.slice(0, offset).trimEnd().at(-1);
  const inObject = enclosing(text, offset) === '{';
  if ((at === '}' || at === ']') && before === ',') return { reason: `Trailing comma before ${at}`, offset };
  if (code === 'ValueExpected' && at === undefined) return { reason: 'Unexpected end of input, expected a JSON value', offset };
  if (code === 'EndOfFileExpected') return { reason: `Unexpected ${found} after the end of the JSON value`, offset };
  if (code === 'InvalidCommentToken') return { reason: 'Comments are not allowed in JSON', offset };
  if (code === 'UnexpectedEndOfString') {
    const control = text.slice(offset + 1).search(/[\u0000-\u001f]/);
    return { reason: 'Bad control character in string (use \\n, \\t, ...)', offset: control < 0 ? offset : offset + 1 + control };
  }
  if (code === 'InvalidSymbol' && inObject && (before === '{' || before === ',')) return { reason: `Expected a property name in double quotes, found ${found}`, offset };
  if (code === 'InvalidSymbol') return { reason: `Unexpected ${found}`, offset };
  if (code === 'CommaExpected' || code === 'CloseBraceExpected' || code === 'CloseBracketExpected') {
    return { reason: inObject ? `Expected ',' or '}' after property value, found ${found}` : `Expected ',' or ']' after array element, found ${found}`, offset };
  }
  const expected = EXPECTED[code];
  return { reason: expected ? `${expected}, found ${found}` : `Invalid JSON (${code})`, offset };
}

export function parseJsonWithLocations(source: string): LocatedJson {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first || !root) {
    const { reason, offset } = first ? describe(text, first) : { reason: 'Unexpected end of input, expected a JSON value', offset: 0 };
    throw new JsonSyntaxError(reason, offset, offsetToLocation(text, offset));
  }
  return {
    value: JSON.parse(text),
    locate(path) {
      for (let depth = path.length; depth >= 0; depth--) {
        const node = findNodeAtLocation(root, [...path.slice(0, depth)]);
        if (node) return offsetToLocation(text, node.offset);
      }
      return offsetToLocation(text, root.offset);
    },
  };
}
