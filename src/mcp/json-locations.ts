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
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/**
 * A strict JSON parser that also remembers where each value starts, so configuration errors
 * can point at a line and column (JSON.parse reports neither consistently across Node versions).
 */
export function parseJsonWithLocations(text: string): LocatedJson {
  const offsets = new Map<string, number>();
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const fail = (reason: string, at = pos): never => {
    throw new JsonSyntaxError(reason, at, offsetToLocation(text, at));
  };
  const describe = (at: number) => (at >= text.length ? 'end of input' : `token ${JSON.stringify(text[at])}`);
  const skipWhitespace = () => {
    while (pos < text.length && WHITESPACE.has(text[pos]!)) pos++;
  };
  const expect = (char: string, context: string) => {
    skipWhitespace();
    if (text[pos] !== char) fail(`Expected '${char}' ${context}, found ${describe(pos)}`);
    pos++;
  };

  const parseString = (): string => {
    const start = pos;
    pos++;
    while (pos < text.length && text[pos] !== '"') {
      const code = text.charCodeAt(pos);
      if (code < 0x20) fail('Bad control character in string (use \\n, \\t, ...)');
      pos += text[pos] === '\\' ? 2 : 1;
    }
    if (pos >= text.length) fail('Unterminated string', start);
    pos++;
    try {
      return JSON.parse(text.slice(start, pos)) as string;
    } catch {
      return fail('Invalid escape sequence in string', start);
    }
  };

  const parseLiteral = (word: string, value: unknown): unknown => {
    if (text.startsWith(word, pos)) {
      pos += word.length;
      return value;
    }
    return fail(`Unexpected ${describe(pos)}`);
  };

  const parseValue = (path: Array<string | number>): unknown => {
    skipWhitespace();
    offsets.set(JSON.stringify(path), pos);
    const char = text[pos];
    if (char === '{') return parseObject(path);
    if (char === '[') return parseArray(path);
    if (char === '"') return parseString();
    if (char === 't') return parseLiteral('true', true);
    if (char === 'f') return parseLiteral('false', false);
    if (char === 'n') return parseLiteral('null', null);
    NUMBER.lastIndex = pos;
    const number = NUMBER.exec(text);
    if (number) {
      pos += number[0].length;
      return Number(number[0]);
    }
    return fail(`Unexpected ${describe(pos)}, expected a JSON value`);
  };

  const parseObject = (path: Array<string | number>): Record<string, unknown> => {
    const result: Record<string, unknown> = {};
    pos++;
    skipWhitespace();
    if (text[pos] === '}') {
      pos++;
      return result;
    }
    for (;;) {
      skipWhitespace();
      if (text[pos] !== '"') {
        fail(
          text[pos] === '}'
            ? 'Trailing comma before }'
            : `Expected a property name in double quotes, found ${describe(pos)}`,
        );
      }
      const key = parseString();
      expect(':', 'after property name');
      // defineProperty keeps a key named __proto__ an ordinary property, as JSON.parse does.
      Object.defineProperty(result, key, { value: parseValue([...path, key]), enumerable: true, writable: true, configurable: true });
      skipWhitespace();
      if (text[pos] === ',') {
        pos++;
        continue;
      }
      if (text[pos] === '}') {
        pos++;
        return result;
      }
      return fail(`Expected ',' or '}' after property value, found ${describe(pos)}`);
    }
  };

  const parseArray = (path: Array<string | number>): unknown[] => {
    const result: unknown[] = [];
    pos++;
    skipWhitespace();
    if (text[pos] === ']') {
      pos++;
      return result;
    }
    for (;;) {
      skipWhitespace();
      if (text[pos] === ']') fail('Trailing comma before ]');
      result.push(parseValue([...path, result.length]));
      skipWhitespace();
      if (text[pos] === ',') {
        pos++;
        continue;
      }
      if (text[pos] === ']') {
        pos++;
        return result;
      }
      return fail(`Expected ',' or ']' after array element, found ${describe(pos)}`);
    }
  };

  const value = parseValue([]);
  skipWhitespace();
  if (pos < text.length) fail(`Unexpected ${describe(pos)} after the end of the JSON value`);

  return {
    value,
    locate(path) {
      for (let length = path.length; length >= 0; length--) {
        const offset = offsets.get(JSON.stringify(path.slice(0, length)));
        if (offset !== undefined) return offsetToLocation(text, offset);
      }
      return { line: 1, column: 1 };
    },
  };
}
