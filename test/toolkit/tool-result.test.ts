import { MAX_RESULT_BLOCKS } from '../../src/toolkit/bound-blocks';
import { boundToolResult, toToolResult, truncateText, type ToolResult } from '../../src/toolkit/tool-result';

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
    // Cut text stays as it is when bounded again; a tighter cut still names the original size.
    expect(truncateText(cut, 100)).toBe(cut);
    expect(truncateText(cut, 10)).toBe(`${'y'.repeat(10)}\n[... output truncated: showing the first 10 of 250 characters ...]`);
  });
});

describe('rich results are bounded as a whole', () => {
  const LIMIT = 30_000;
  const TEN_MB = 10 * 1024 * 1024;
  const marker = (total: number) => `\n[... output truncated: showing the first ${LIMIT} of ${total} characters ...]`;
  /** Far below the 2 MB Temporal payload limit whatever the tool returned. */
  const expectSmall = (result: ToolResult) => expect(JSON.stringify(result).length).toBeLessThan(3 * LIMIT);

  test('a 10 MB text block: content and block are cut at the limit with the marker', () => {
    const text = 'a'.repeat(TEN_MB);
    const result = toToolResult({ blocks: [{ type: 'text', text }] }, LIMIT);
    expect(result.content).toBe('a'.repeat(LIMIT) + marker(TEN_MB));
    expect(result.blocks).toEqual([{ type: 'text', text: 'a'.repeat(LIMIT) + marker(TEN_MB) }]);
    expectSmall(result);
  });

  test('a 10 MB json block: the model sees its text cut, the run keeps a marker naming type and size', () => {
    const data = { rows: 'r'.repeat(TEN_MB) };
    const size = JSON.stringify({ type: 'json', data }).length;
    const result = toToolResult({ blocks: [{ type: 'json', data }] }, LIMIT);
    expect(result.content).toBe(JSON.stringify(data).slice(0, LIMIT) + marker(JSON.stringify(data).length));
    expect(result.blocks).toEqual([
      { type: 'text', text: `[json block omitted: ${size.toLocaleString('en-US')} characters, over the 30,000-character limit]` },
    ]);
    expectSmall(result);
  });

  test('an image with a huge data URL and a huge resource are replaced; the text beside them is kept', () => {
    const url = `data:image/png;base64,${'A'.repeat(TEN_MB)}`;
    const result = toToolResult(
      {
        blocks: [
          { type: 'image', url, mimeType: 'image/png' },
          { type: 'text', text: 'the chart' },
          { type: 'resource', uri: 'file:///big.log', text: 'l'.repeat(TEN_MB) },
          { type: 'resource', uri: 'file:///small.log', text: 'ok' },
        ],
      },
      LIMIT,
    );
    expect(result.content).toBe('the chart');
    expect(result.blocks).toEqual([
      { type: 'text', text: expect.stringMatching(/^\[image block omitted: 10,485,8\d\d characters, over the 30,000-character limit\]$/) },
      { type: 'text', text: 'the chart' },
      { type: 'text', text: expect.stringMatching(/^\[resource block omitted: 10,485,8\d\d characters, over the 30,000-character limit\]$/) },
      { type: 'resource', uri: 'file:///small.log', text: 'ok' },
    ]);
    expectSmall(result);
  });

  test('many small blocks: text up to the limit is kept, the rest becomes one marker', () => {
    const blocks = Array.from({ length: 100_000 }, (_, i) => ({ type: 'text' as const, text: String(i % 10).repeat(100) }));
    const result = toToolResult({ blocks }, LIMIT);
    expect(result.blocks).toHaveLength(301);
    expect(result.blocks!.slice(0, 300)).toEqual(blocks.slice(0, 300));
    expect(result.blocks![300]).toEqual({
      type: 'text',
      text: '[99,700 more blocks omitted: 9,970,000 characters, over the 30,000-character limit]',
    });
    expect(result.content.length).toBeLessThan(LIMIT + 100);
    expectSmall(result);
  });

  test('many tiny blocks: at most MAX_RESULT_BLOCKS are kept', () => {
    const blocks = Array.from({ length: 50_000 }, () => ({ type: 'json' as const, data: 1 }));
    const result = toToolResult({ blocks }, LIMIT);
    expect(result.blocks).toHaveLength(MAX_RESULT_BLOCKS);
    expect(result.blocks!.at(-1)).toEqual({
      type: 'text',
      text: `[${(50_000 - MAX_RESULT_BLOCKS + 1).toLocaleString('en-US')} more blocks omitted: ${(24 * (50_000 - MAX_RESULT_BLOCKS + 1)).toLocaleString('en-US')} characters, over the 1,000-block limit]`,
    });
    expectSmall(result);
  });

  test('a mix: blocks that fit are kept in order, a large json is omitted, the text is cut where the budget ends', () => {
    const result = toToolResult(
      {
        blocks: [
          { type: 'text', text: 'h'.repeat(10_000) },
          { type: 'json', data: { big: 'j'.repeat(TEN_MB) } },
          { type: 'json', data: { small: true } },
          { type: 'text', text: 't'.repeat(TEN_MB) },
          { type: 'image', url: 'https://example.com/x.png' },
          { type: 'text', text: 'after' },
        ],
        isError: true,
      },
      LIMIT,
    );
    const left = LIMIT - 10_000 - JSON.stringify({ type: 'json', data: { small: true } }).length;
    expect(result.state).toBe('error');
    expect(result.blocks).toEqual([
      { type: 'text', text: 'h'.repeat(10_000) },
      { type: 'text', text: expect.stringMatching(/^\[json block omitted: 10,485,7\d\d characters, over the 30,000-character limit\]$/) },
      { type: 'json', data: { small: true } },
      { type: 'text', text: `${'t'.repeat(left)}\n[... output truncated: showing the first ${left} of ${TEN_MB} characters ...]` },
      { type: 'text', text: '[2 more blocks omitted: 55 characters, over the 30,000-character limit]' },
    ]);
    expect(result.content).toBe(`${'h'.repeat(10_000)}\n${'t'.repeat(LIMIT - 10_001)}${marker(10_000 + 1 + TEN_MB + 1 + 5)}`);
    expectSmall(result);
  });

  test('a block that cannot be serialized is replaced rather than failing the activity', () => {
    const data: Record<string, unknown> = {};
    data.self = data;
    const result = toToolResult({ blocks: [{ type: 'json', data }] }, LIMIT);
    expect(result.blocks).toEqual([{ type: 'text', text: '[json block omitted: not serializable as JSON]' }]);
    expect(() => JSON.stringify(result)).not.toThrow();
  });

  test('bounding a bounded result again changes nothing', () => {
    const results = [
      toToolResult({ blocks: [{ type: 'text', text: 'a'.repeat(TEN_MB) }] }, LIMIT),
      toToolResult({ blocks: Array.from({ length: 5_000 }, (_, i) => ({ type: 'text' as const, text: `row ${i} `.repeat(3) })) }, LIMIT),
      toToolResult(
        { blocks: [{ type: 'json', data: 'j'.repeat(TEN_MB) }, { type: 'text', text: 'x'.repeat(40_000) }, { type: 'json', data: 2 }] },
        LIMIT,
      ),
      toToolResult('y'.repeat(TEN_MB), LIMIT),
    ];
    for (const result of results) expect(boundToolResult(result, LIMIT)).toEqual(result);
    // A tighter bound still cuts, and still reports the original size.
    expect(boundToolResult(results[0], 10).content).toBe(`aaaaaaaaaa\n[... output truncated: showing the first 10 of ${TEN_MB} characters ...]`);
  });

  test('a huge result put in place after the tool (as by middleware) is bounded too', () => {
    const huge: ToolResult = { content: 'z'.repeat(TEN_MB), state: 'success', blocks: [{ type: 'json', data: 'z'.repeat(TEN_MB) }] };
    const result = boundToolResult(huge, LIMIT);
    expect(result.content).toBe('z'.repeat(LIMIT) + marker(TEN_MB));
    expect(result.blocks![0]).toEqual({ type: 'text', text: expect.stringMatching(/^\[json block omitted: /) });
    expectSmall(result);
  });
});
