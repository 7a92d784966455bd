import { JsonSyntaxError, parseJsonWithLocations } from '../../src/mcp/json-locations';

function syntaxError(text: string): JsonSyntaxError {
  try {
    parseJsonWithLocations(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return error;
    throw error;
  }
  throw new Error('expected a syntax error');
}

describe('parseJsonWithLocations', () => {
  it('parses what JSON.parse parses', () => {
    const text = '\uFEFF{"a":[1,-2.5e3,true,false,null,"x\\n\\u00e9"],"b":{"__proto__":{"c":1}}}';
    const { value } = parseJsonWithLocations(text);
    expect(value).toEqual(JSON.parse(text.slice(1)));
    expect(Object.getPrototypeOf((value as { b: object }).b)).toBe(Object.prototype);
  });

  it('locates values by path and falls back to the nearest ancestor', () => {
    const located = parseJsonWithLocations('{\n  "servers": {\n    "a": {\n      "args": ["x", "y"]\n    }\n  }\n}');
    expect(located.locate(['servers', 'a', 'args', 1])).toEqual({ line: 4, column: 21 });
    expect(located.locate(['servers', 'a', 'missing'])).toEqual({ line: 3, column: 10 });
  });

  it.each([
    ['{"a": 1,}', 'Trailing comma before }', 1, 9],
    ['[1, 2,]', 'Trailing comma before ]', 1, 7],
    ['{"a": 1', "Expected ',' or '}' after property value, found end of input", 1, 8],
    ['{\n  a: 1\n}', 'Expected a property name in double quotes, found token "a"', 2, 3],
    ['{"a": tru}', 'Unexpected token "t"', 1, 7],
    ['{"a": "x\ny"}', 'Bad control character in string (use \\n, \\t, ...)', 1, 9],
    ['{} {}', 'Unexpected token "{" after the end of the JSON value', 1, 4],
    ['', 'Unexpected end of input, expected a JSON value', 1, 1],
  ])('%j → %s at %i:%i', (text, reason, line, column) => {
    const error = syntaxError(text);
    expect(error.reason).toBe(reason);
    expect(error.location).toEqual({ line, column });
  });
});
