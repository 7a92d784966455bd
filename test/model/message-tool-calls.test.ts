import { readMessageToolCalls } from '../../src/model/message-tool-calls';
import { readCompletion } from '../../src/model/read-completion';
import type { ChatCompletion } from 'openai/resources/chat/completions';

const call = (id: string | undefined, name: string, args: unknown) => ({
  ...(id !== undefined ? { id } : {}),
  type: 'function',
  function: { name, arguments: args },
});

describe('tool calls of a non-streaming reply', () => {
  it('keeps every entry as its own call, in order, even when ids repeat', () => {
    const calls = readMessageToolCalls([
      call('dup', 'weather_lookup', '{"city":"Rome"}'),
      call('dup', 'weather_lookup', '{"city":"Rome"}'),
      call('dup', 'query_order', '{"order_id":"A1"}'),
    ]);
    expect(calls).toEqual([
      { id: 'dup', name: 'weather_lookup', arguments: '{"city":"Rome"}' },
      { id: 'dup', name: 'weather_lookup', arguments: '{"city":"Rome"}' },
      { id: 'dup', name: 'query_order', arguments: '{"order_id":"A1"}' },
    ]);
  });

  it('gives calls without an id a positional placeholder, which the workflow replaces when taken', () => {
    const calls = readMessageToolCalls([call(undefined, 'a', '{}'), { ...call('x', 'b', '{}'), id: '' }, call('c_1', 'c', '{}')]);
    expect(calls.map((c) => c.id)).toEqual(['call_0', 'call_1', 'c_1']);
  });

  it('shares the streaming rules for names and arguments', () => {
    const calls = readMessageToolCalls([
      call('p', '__fragment__', '{}'),
      call('o', 'query_order', { order_id: 'H8' }),
      call('n', 'query_order', null),
    ]);
    expect(calls).toEqual([
      { id: 'p', name: '', arguments: '{}' },
      { id: 'o', name: 'query_order', arguments: '{"order_id":"H8"}' },
      { id: 'n', name: 'query_order', arguments: '' },
    ]);
  });

  it('skips other call types, empty and malformed entries', () => {
    const calls = readMessageToolCalls([
      null,
      'garbage',
      { id: 'custom_1', type: 'custom', custom: { name: 'grammar', input: 'x' } },
      { type: 'function', function: { name: '', arguments: '' } },
      { type: 'function', function: null },
      call('k', 'kept', '{}'),
    ]);
    expect(calls).toEqual([{ id: 'k', name: 'kept', arguments: '{}' }]);
    expect(readMessageToolCalls(undefined)).toEqual([]);
    expect(readMessageToolCalls({ not: 'an array' })).toEqual([]);
  });

  it('reach the assistant message unmerged', () => {
    const completion = {
      id: 'c',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          logprobs: null,
          message: {
            role: 'assistant',
            content: null,
            refusal: null,
            tool_calls: [call('dup', 'weather_lookup', '{"city":"Rome"}'), call('dup', 'weather_lookup', '{"city":"Rome"}')],
          },
        },
      ],
    } as unknown as ChatCompletion;
    expect(readCompletion(completion, 'm').message.toolCalls).toEqual([
      { id: 'dup', name: 'weather_lookup', arguments: '{"city":"Rome"}' },
      { id: 'dup', name: 'weather_lookup', arguments: '{"city":"Rome"}' },
    ]);
  });
});
