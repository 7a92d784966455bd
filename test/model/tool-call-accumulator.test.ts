import { isRealToolName, ToolCallAccumulator, type ToolCallDelta } from '../../src/model/tool-call-accumulator';

const weatherArgs = '{"city":"Zürich","days":3,"units":"metric"}';
const orderArgs = '{"order_id":"ORD-2024-001"}';

function accumulate(deltas: ToolCallDelta[]) {
  const accumulator = new ToolCallAccumulator();
  for (const delta of deltas) accumulator.add(delta);
  return accumulator.toolCalls();
}

/** OpenAI's shape: head with id, name and empty arguments, then id-less, name-less fragments. */
function openAIDeltas(index: number, id: string, name: string, fragments: string[]): ToolCallDelta[] {
  return [
    { index, id, type: 'function', function: { name, arguments: '' } },
    ...fragments.map((fragment) => ({ index, function: { arguments: fragment } })),
  ];
}

describe('ToolCallAccumulator', () => {
  it('rebuilds the same call whatever single position the arguments are split at', () => {
    for (let cut = 0; cut <= weatherArgs.length; cut++) {
      const calls = accumulate(openAIDeltas(0, 'call_w', 'get_weather', [weatherArgs.slice(0, cut), weatherArgs.slice(cut)]));
      expect(calls).toEqual([{ id: 'call_w', name: 'get_weather', arguments: weatherArgs }]);
    }
  });

  it('rebuilds the same call for every pair of split positions', () => {
    for (let first = 0; first <= orderArgs.length; first++) {
      for (let second = first; second <= orderArgs.length; second++) {
        const fragments = [orderArgs.slice(0, first), orderArgs.slice(first, second), orderArgs.slice(second)];
        const calls = accumulate(openAIDeltas(0, 'call_o', 'query_order', fragments));
        expect(calls).toEqual([{ id: 'call_o', name: 'query_order', arguments: orderArgs }]);
        expect(JSON.parse(calls[0].arguments)).toEqual({ order_id: 'ORD-2024-001' });
      }
    }
  });

  it('keeps interleaved parallel calls apart, ordered by index', () => {
    const a = openAIDeltas(0, 'call_a', 'get_weather', ['{"city":', '"Paris"', '}']);
    const b = openAIDeltas(1, 'call_b', 'query_order', ['{"order_id"', ':"X1"}']);
    const c = openAIDeltas(2, 'call_c', 'track_logistics', ['{}']);
    const interleaved: ToolCallDelta[] = [];
    for (let round = 0; round < 4; round++) {
      for (const list of [b, c, a]) if (round < list.length) interleaved.push(list[round]);
    }
    expect(accumulate(interleaved)).toEqual([
      { id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { id: 'call_b', name: 'query_order', arguments: '{"order_id":"X1"}' },
      { id: 'call_c', name: 'track_logistics', arguments: '{}' },
    ]);
  });

  it('takes the id from the first chunk and keeps it when a later fragment carries another id', () => {
    const calls = accumulate([
      { index: 0, id: 'call_first', function: { name: 'query_order', arguments: '{"order_id":' } },
      { index: 0, id: 'call_other', function: { arguments: '"A7"}' } },
    ]);
    expect(calls).toEqual([{ id: 'call_first', name: 'query_order', arguments: '{"order_id":"A7"}' }]);
  });

  it('joins fragments that repeat the id on every chunk', () => {
    const calls = accumulate([
      { index: 0, id: 'call_1', function: { name: 'query_order', arguments: '{"order' } },
      { index: 0, id: 'call_1', function: { arguments: '_id":"B2"}' } },
    ]);
    expect(calls).toEqual([{ id: 'call_1', name: 'query_order', arguments: '{"order_id":"B2"}' }]);
  });

  it('continues the latest call with a fragment that has neither index, id nor name', () => {
    const calls = accumulate([
      { index: 0, id: 'call_a', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
      { index: 1, id: 'call_b', function: { name: 'query_order', arguments: '{"order_id":' } },
      { function: { arguments: '"C3"}' } },
    ]);
    expect(calls).toEqual([
      { id: 'call_a', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { id: 'call_b', name: 'query_order', arguments: '{"order_id":"C3"}' },
    ]);
  });

  it('sends a name-less fragment with an index to the call at that index, not the latest one', () => {
    const calls = accumulate([
      { index: 0, id: 'call_a', function: { name: 'get_weather', arguments: '{"city":' } },
      { index: 1, id: 'call_b', function: { name: 'query_order', arguments: '{"order_id":"D4"}' } },
      { index: 0, function: { arguments: '"Rome"}' } },
    ]);
    expect(calls[0]).toEqual({ id: 'call_a', name: 'get_weather', arguments: '{"city":"Rome"}' });
    expect(calls[1].arguments).toBe('{"order_id":"D4"}');
  });

  it('does not split a call when the last fragment wrongly carries the name (AgentScope #1216)', () => {
    const calls = accumulate([
      { index: 0, id: 'call_q', type: 'function', function: { name: 'query_order', arguments: '' } },
      { index: 0, function: { arguments: '{"order_id":"E5"' } },
      { index: 0, function: { name: 'query_order', arguments: '}' } },
    ]);
    expect(calls).toEqual([{ id: 'call_q', name: 'query_order', arguments: '{"order_id":"E5"}' }]);
  });

  it('never takes a placeholder name, and a later real name fills it in', () => {
    const calls = accumulate([
      { index: 0, id: 'call_p', function: { name: '__fragment__', arguments: '{"a":' } },
      { index: 0, function: { name: '', arguments: '1' } },
      { index: 0, function: { name: 'real_tool', arguments: '}' } },
    ]);
    expect(calls).toEqual([{ id: 'call_p', name: 'real_tool', arguments: '{"a":1}' }]);
  });

  it('starts a new call when a head with another id and a real name reuses an index', () => {
    const calls = accumulate([
      { index: 0, id: 'call_1', function: { name: 'get_weather', arguments: '{"city":"Lima"}' } },
      { index: 0, id: 'call_2', function: { name: 'query_order', arguments: '{"order_id":' } },
      { index: 0, function: { arguments: '"F6"}' } },
    ]);
    expect(calls).toEqual([
      { id: 'call_1', name: 'get_weather', arguments: '{"city":"Lima"}' },
      { id: 'call_2', name: 'query_order', arguments: '{"order_id":"F6"}' },
    ]);
  });

  it('keeps calls that repeat one id at distinct indexes apart', () => {
    const first = openAIDeltas(0, 'dup', 'get_weather', ['{"city":', '"Rome"}']);
    const second = openAIDeltas(1, 'dup', 'query_order', ['{"order_id"', ':"I9"}']);
    const interleaved = first.flatMap((delta, round) => [delta, second[round]]);
    expect(accumulate(interleaved)).toEqual([
      { id: 'dup', name: 'get_weather', arguments: '{"city":"Rome"}' },
      { id: 'dup', name: 'query_order', arguments: '{"order_id":"I9"}' },
    ]);
  });

  it('sends fragments that repeat a shared id to the call at their own index', () => {
    const calls = accumulate([
      { index: 0, id: 'dup', function: { name: 'get_weather', arguments: '{"city":' } },
      { index: 1, id: 'dup', function: { name: 'get_weather', arguments: '{"city":' } },
      { index: 1, id: 'dup', function: { arguments: '"Oslo"}' } },
      { index: 0, id: 'dup', function: { arguments: '"Rome"}' } },
    ]);
    expect(calls).toEqual([
      { id: 'dup', name: 'get_weather', arguments: '{"city":"Rome"}' },
      { id: 'dup', name: 'get_weather', arguments: '{"city":"Oslo"}' },
    ]);
  });

  it('joins a named fragment with the same id at the same index, or with no index, to its call', () => {
    const calls = accumulate([
      { index: 0, id: 'call_s', function: { name: 'query_order', arguments: '{"order_id":' } },
      { index: 0, id: 'call_s', function: { name: 'query_order', arguments: '"J1"' } },
      { id: 'call_s', function: { name: 'query_order', arguments: '}' } },
    ]);
    expect(calls).toEqual([{ id: 'call_s', name: 'query_order', arguments: '{"order_id":"J1"}' }]);
  });

  it('joins a name-less fragment with a known id to that call even at another index', () => {
    const calls = accumulate([
      { index: 0, id: 'call_t', function: { name: 'query_order', arguments: '{"order_id":' } },
      { index: 3, id: 'call_t', function: { arguments: '"K2"}' } },
    ]);
    expect(calls).toEqual([{ id: 'call_t', name: 'query_order', arguments: '{"order_id":"K2"}' }]);
  });

  it('survives malformed deltas without crashing or inventing calls', () => {
    const accumulator = new ToolCallAccumulator();
    accumulator.add({ index: 0, id: 'call_m', function: { name: 'query_order', arguments: '{"order_id":' } });
    accumulator.add(null);
    accumulator.add(undefined);
    accumulator.add('garbage' as unknown as ToolCallDelta);
    accumulator.add({ index: 0, function: null });
    accumulator.add({ index: 0 });
    accumulator.add({ index: Number.NaN, function: { arguments: '"G7"' } });
    accumulator.add({ index: 0, id: null, function: { name: null, arguments: null } });
    accumulator.add({ index: 0, function: { arguments: '}' } });
    accumulator.addAll(null);
    accumulator.addAll([null, { index: 0, function: { arguments: '' } }]);
    expect(accumulator.toolCalls()).toEqual([{ id: 'call_m', name: 'query_order', arguments: '{"order_id":"G7"}' }]);
  });

  it('serializes arguments that arrive as an already parsed object', () => {
    const calls = accumulate([{ index: 0, id: 'call_o', function: { name: 'query_order', arguments: { order_id: 'H8' } } }]);
    expect(calls).toEqual([{ id: 'call_o', name: 'query_order', arguments: '{"order_id":"H8"}' }]);
  });

  it('keeps invalid JSON arguments verbatim for validation later', () => {
    const calls = accumulate(openAIDeltas(0, 'call_x', 'query_order', ['{"order_id": ', 'oops']));
    expect(calls).toEqual([{ id: 'call_x', name: 'query_order', arguments: '{"order_id": oops' }]);
  });

  it('gives calls without an id a positional id', () => {
    const calls = accumulate([
      { index: 0, function: { name: 'a', arguments: '{}' } },
      { index: 1, function: { name: 'b', arguments: '{}' } },
    ]);
    expect(calls.map((call) => call.id)).toEqual(['call_0', 'call_1']);
    expect(calls.map((call) => call.name)).toEqual(['a', 'b']);
  });

  it('tells real tool names from placeholders', () => {
    expect(isRealToolName('query_order')).toBe(true);
    expect(isRealToolName('__fragment__')).toBe(false);
    expect(isRealToolName('  ')).toBe(false);
    expect(isRealToolName(null)).toBe(false);
  });
});
