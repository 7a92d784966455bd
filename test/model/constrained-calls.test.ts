import { z } from 'zod';
import type { Message } from '../../src/common/messages';
import { constrainedReplySchema, constrainedRequest, constrainsCalls, readConstrainedReply } from '../../src/model/constrained-calls';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';

const track = { name: 'track', description: 'Track an order.', parameters: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'], additionalProperties: false } };

/** A question, the model's lookup and its result. */
const oneLookup: Message[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Where is A-1?' },
  { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'track', arguments: '{"order_id":"A-1"}' }] },
  { role: 'tool', toolCallId: 'c1', name: 'track', content: 'shipped', state: 'success' },
];

describe('calls constrained to the offered schemas', () => {
  test('the reply schema is a call of one of the tools (its arguments schema) or an answer', () => {
    expect(constrainedReplySchema([track])).toEqual({
      oneOf: [
        { type: 'object', properties: { tool: { const: 'track' }, arguments: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'], additionalProperties: false } }, required: ['tool', 'arguments'], additionalProperties: false },
        { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false },
      ],
    });
    const typed = constrainedReplySchema([track], { type: 'object', properties: { total: { type: 'number' } } });
    expect((typed.oneOf as unknown[])[1]).toEqual({ type: 'object', properties: { answer: { type: 'object', properties: { total: { type: 'number' } } } }, required: ['answer'], additionalProperties: false });
  });

  test('the request offers no tools; the system message lists them, and earlier calls and results stay as they are', () => {
    const request = constrainedRequest({
      messages: oneLookup,
      tools: [track],
    });
    expect(request.tools).toEqual([]);
    expect(request.responseFormat?.name).toBe('reply');
    expect(request.messages[0]!.content).toContain('- track: Track an order.');
    expect(request.messages.slice(1)).toEqual([
      { role: 'user', content: 'Where is A-1?' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'track', arguments: '{"order_id":"A-1"}' }] },
      { role: 'tool', toolCallId: 'c1', name: 'track', content: 'shipped', state: 'success' },
    ]);
  });

  test('a reply reads back as a call or an answer; anything else stays text', () => {
    expect(readConstrainedReply({ role: 'assistant', content: '{"tool": "track", "arguments": {"order_id": "A-1"}}' })).toEqual({
      role: 'assistant',
      content: null,
      toolCalls: [{ id: 'constrained_call_0', name: 'track', arguments: '{"order_id":"A-1"}' }],
    });
    expect(readConstrainedReply({ role: 'assistant', content: '{"answer": "It shipped."}' })).toEqual({ role: 'assistant', content: 'It shipped.' });
    expect(readConstrainedReply({ role: 'assistant', content: '{"answer": {"total": 3}}' })).toEqual({ role: 'assistant', content: '{"total":3}' });
    expect(readConstrainedReply({ role: 'assistant', content: '{"tool": "track", "argu' })).toEqual({ role: 'assistant', content: '{"tool": "track", "argu' });
  });

  test('constrained when the agent or the worker says so, and only with tools offered', () => {
    expect(constrainsCalls(undefined, ['*'], 'm', 1)).toBe(true);
    expect(constrainsCalls(undefined, ['m'], 'm', 1)).toBe(true);
    expect(constrainsCalls(undefined, ['other'], 'm', 1)).toBe(false);
    expect(constrainsCalls(false, ['*'], 'm', 1)).toBe(false);
    expect(constrainsCalls(true, [], 'm', 0)).toBe(false);
  });
});

const orders: string[] = [];
const trackTool = defineTool({
  name: 'track',
  description: 'Track an order.',
  input: z.object({ order_id: z.string() }),
  readOnly: true,
  execute: ({ order_id }) => {
    orders.push(order_id);
    return `${order_id}: shipped`;
  },
});
const agent = defineAgent({ name: 'constrained', model: { name: 'constrained', constrainedCalls: true }, instructions: 'Track orders.', tools: [trackTool] });

describe('a run whose calls are constrained', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [agent], byModel: { constrained: ['{"tool": "track", "arguments": {"order_id": "A-1"}}', '{"answer": "A-1 has shipped."}'] } });
  });
  afterAll(() => env?.stop());

  test('sends the schema instead of tools, runs the call the reply holds and answers with the answer', async () => {
    const result = await (await env.client.start('constrained', { prompt: 'Where is A-1?' })).result();
    expect(result.output).toBe('A-1 has shipped.');
    expect(orders).toEqual(['A-1']);
    const [first] = env.model.requests;
    expect(first!.body.tools).toBeUndefined();
    expect(first!.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'reply', schema: { oneOf: expect.any(Array) } } });
  });
});

describe('after a repeated call', () => {
  test('the next reply is held to an answer, and the model is told it has the result', () => {
    const request = constrainedRequest({
      messages: [
        ...oneLookup,
        { role: 'assistant', content: null, toolCalls: [{ id: 'c2', name: 'track', arguments: '{"order_id":"A-1"}' }] },
        { role: 'tool', toolCallId: 'c2', name: 'track', content: 'This call repeats call c1, which already ran with the same arguments; it was not run again. Its result:\nshipped', state: 'success' },
      ],
      tools: [track],
    });
    expect(request.responseFormat?.schema).toEqual({ oneOf: [{ type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false }] });
    expect(request.messages.at(-1)).toEqual({ role: 'user', content: 'You already have the result of that call above. Answer now from the results you have.' });
  });
});
