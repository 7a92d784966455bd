import { toToolResult, truncateText } from '../../src/toolkit/tool-result';

describe('tool return values become results for the model', () => {
  test.each([
    ['a string, as is', 'hello', 'hello'],
    ['undefined → Done', undefined, 'Done'],
    ['null → null', null, 'null'],
    ['a number → JSON', 42, '42'],
    ['an object → JSON', { a: 1, b: [true] }, '{"a":1,"b":[true]}'],
  ])('%s', (_name, value, content) => {
    expect(toToolResult(value, 1000)).toEqual({ content, state: 'success' });
  });

  test('content blocks: the text reaches the model, every block stays in the result', () => {
    const blocks = [
      { type: 'text' as const, text: 'two rows' },
      { type: 'json' as const, data: { rows: 2 } },
    ];
    expect(toToolResult({ blocks }, 1000)).toEqual({ content: 'two rows', state: 'success', blocks });
    expect(toToolResult({ blocks, isError: true }, 1000).state).toBe('error');
  });

  test('results above the limit are cut with a visible marker', () => {
    const long = 'x'.repeat(50);
    expect(truncateText(long, 100)).toBe(long);
    const cut = toToolResult('y'.repeat(250), 100).content;
    expect(cut.startsWith('y'.repeat(100))).toBe(true);
    expect(cut.slice(100)).toBe('\n[... output truncated: showing the first 100 of 250 characters ...]');
  });
});
