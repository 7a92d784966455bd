import type { AssistantMessage } from '../../src/common/messages';
import { readsTextToolCalls, readTextToolCalls } from '../../src/model/text-tool-calls';
import { unknownKeys, unknownKeysMessage } from '../../src/toolkit/unknown-keys';

const reply = (content: string | null, more: Partial<AssistantMessage> = {}): AssistantMessage => ({ role: 'assistant', content, model: 'qwen', ...more });
const callsOf = (content: string) => readTextToolCalls(reply(content), 1);

describe('tool calls written in the reply text', () => {
  test.each([
    ['Hermes/Qwen tags', '<tool_call>\n{"name": "lookup_order", "arguments": {"order_id": "A-1"}}\n</tool_call>'],
    ['a bare JSON object', '{"name": "lookup_order", "arguments": {"order_id": "A-1"}}'],
    ['a code fence', 'I will look it up.\n```json\n{"name": "lookup_order", "arguments": {"order_id": "A-1"}}\n```'],
    ['parameters instead of arguments (Llama)', '<|python_tag|>{"name": "lookup_order", "parameters": {"order_id": "A-1"}}'],
    ['a function object', '{"type": "function", "function": {"name": "lookup_order", "arguments": "{\\"order_id\\": \\"A-1\\"}"}}'],
    ['Mistral', '[TOOL_CALLS] [{"name": "lookup_order", "arguments": {"order_id": "A-1"}}]'],
  ])('%s', (_format, text) => {
    const message = callsOf(text);
    expect(message.toolCalls).toEqual([{ id: 'text_call_0', name: 'lookup_order', arguments: '{"order_id":"A-1"}' }].map((call) => ({ ...call, arguments: expect.stringMatching(/"order_id":\s?"A-1"/) })));
  });

  test('several calls, and the text around them kept as the reply text', () => {
    const message = callsOf('Checking both.\n<tool_call>{"name":"a","arguments":{}}</tool_call>\n<tool_call>{"name":"b","arguments":{"x":1}}</tool_call>');
    expect(message.toolCalls!.map((call) => [call.id, call.name, call.arguments])).toEqual([
      ['text_call_0', 'a', '{}'],
      ['text_call_1', 'b', '{"x":1}'],
    ]);
    expect(message.content).toBe('Checking both.');
  });

  test("a tagged call whose JSON is broken is still a call, so the model reads the arguments' error instead of ending the run", () => {
    const message = callsOf('<tool_call>{"name": "refund", "arguments": {"order_id": "A-1",}</tool_call>');
    expect(message.toolCalls).toEqual([{ id: 'text_call_0', name: 'refund', arguments: '{"name": "refund", "arguments": {"order_id": "A-1",}' }]);
    expect(message.content).toBeNull();
  });

  test('text that holds no call, JSON that is not a call, and replies with native calls are left as they are', () => {
    for (const text of ['The order ships tomorrow.', 'Here: {"status": "shipped", "eta": "tomorrow"}', '{"name": "Ann"}']) expect(callsOf(text)).toEqual(reply(text));
    const native = reply('{"name":"x","arguments":{}}', { toolCalls: [{ id: 'c', name: 'y', arguments: '{}' }] });
    expect(readTextToolCalls(native, 1)).toBe(native);
  });

  test('a reply that starts as a call but is no JSON is a call whose arguments fail to parse, as a small model writes it', () => {
    const text = '{"name": "request_refund", "arguments": {"order_id": "A-2", "reason": "broken","requestedBy":"u-1"}';
    expect(callsOf(text).toolCalls).toEqual([{ id: 'text_call_0', name: 'request_refund', arguments: '{"order_id": "A-2", "reason": "broken","requestedBy":"u-1"}' }]);
  });

  test.each([
    ['wrapped in <json> tags', '<json>\n{"name": "lookup_order", "arguments": {"order_id": "A-1"}}\n</json>', null],
    ['after a lead-in sentence', 'Sure, I\'ll look that up:\n{"name": "lookup_order", "arguments": {"order_id": "A-1"}}', "Sure, I'll look that up:"],
    ['after a lead-in, in <json> tags, its last brace missing', 'Sure, I\'ll look that up: <json>{"name": "lookup_order", "arguments": {"order_id": "A-1"}</json>', "Sure, I'll look that up:"],
    ['after a lead-in, in a fence, its last brace missing', 'Sure, I\'ll look that up:\n```json\n{"name": "lookup_order", "arguments": {"order_id": "A-1"}\n```', "Sure, I'll look that up:"],
    ['in tags nested in a fence', '```\n<tool_call><json>{"name": "lookup_order", "arguments": {"order_id": "A-1"}}</json></tool_call>\n```', null],
  ])('a call %s is a call, and the markup around it is no text (Qwen2.5-Coder 0.5B)', (_how, text, left) => {
    const message = callsOf(text);
    expect(message.toolCalls).toEqual([{ id: 'text_call_0', name: 'lookup_order', arguments: expect.stringMatching(/^\{"order_id":\s?"A-1"\}$/) }]);
    expect(message.content).toBe(left);
  });

  test('a reply that is only markup left behind is empty, so the model is asked again; markup with text in it stays text', () => {
    for (const text of ['<json></json>', '<tool_call></tool_call>', '```json\n```', '<tool_call>\n</tool_call>\n```\n```', '[TOOL_CALLS]']) {
      expect(callsOf(text)).toEqual(reply(null));
    }
    for (const text of ['A-1 <b>has shipped</b>.', '```\nconst a = [1];\n```']) expect(callsOf(text)).toEqual(reply(text));
  });

  test('without tools offered (the summary at the iteration limit) a call written as text is no answer: it is taken out, and the text around it stays', () => {
    const call = '{"name": "lookup_order", "arguments": {"order_id": "A-1"}}';
    expect(readTextToolCalls(reply(call), 0)).toEqual(reply(null));
    expect(readTextToolCalls(reply(`<tool_call>${call}</tool_call>`), 0)).toEqual(reply(null));
    expect(readTextToolCalls(reply(`Nothing found yet.\n${call}`), 0)).toEqual(reply('Nothing found yet.'));
    expect(readTextToolCalls(reply('A-1 has shipped.'), 0)).toEqual(reply('A-1 has shipped.'));
  });

  test('read when the agent says so, else when the worker names the model (or *)', () => {
    expect(readsTextToolCalls(true, [], 'm')).toBe(true);
    expect(readsTextToolCalls(false, ['*'], 'm')).toBe(false);
    expect(readsTextToolCalls(undefined, ['m'], 'm')).toBe(true);
    expect(readsTextToolCalls(undefined, ['*'], 'other')).toBe(true);
    expect(readsTextToolCalls(undefined, ['m'], 'other')).toBe(false);
  });
});

describe('fields the schema forbids are refused, naming them', () => {
  const schema = {
    type: 'object',
    additionalProperties: false,
    properties: { order_id: { type: 'string' }, address: { type: 'object', additionalProperties: false, properties: { city: { type: 'string' } } }, tags: { type: 'array', items: { type: 'object', additionalProperties: false, properties: { k: { type: 'string' } } } } },
  };
  test('at any depth', () => {
    expect(unknownKeys(schema, { order_id: 'A', reason: 'late', address: { city: 'Oslo', zip: '1' }, tags: [{ k: 'a', v: 1 }] })).toEqual(['reason', 'address/zip', 'tags/0/v']);
    expect(unknownKeys(schema, { order_id: 'A' })).toEqual([]);
    expect(unknownKeys({ type: 'object', properties: { a: {} } }, { b: 1 })).toEqual([]);
    expect(unknownKeysMessage('refund', ['reason'], schema)).toBe(
      "Error: Invalid arguments for tool 'refund': unknown field(s) 'reason'; the tool takes 'order_id', 'address', 'tags'. Send only the fields of its schema.",
    );
  });
});
