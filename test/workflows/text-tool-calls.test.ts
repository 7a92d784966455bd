import { z } from 'zod';
import type { ToolMessage } from '../../src/common/messages';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { waitFor, waitForPending } from '../helpers/wait-for';

const lookup = defineTool({
  name: 'lookup_order',
  description: 'Look an order up.',
  input: z.object({ order_id: z.string() }),
  readOnly: true,
  execute: ({ order_id }) => `${order_id}: shipped`,
});

// A small open model writes its calls as text: first to a tool it was not offered, then with a field the schema lacks, then right.
const textCaller = defineAgent({ name: 'text-caller', model: { name: 'text-caller', textToolCalls: true }, instructions: 'Look orders up.', tools: [lookup] });
const plain = defineAgent({ name: 'text-plain', model: { name: 'text-caller', textToolCalls: false }, instructions: 'Look orders up.', tools: [lookup] });
// As Qwen2.5-Coder 0.5B writes them: a call in <json> tags, then one after a lead-in with its last brace missing, then the tags left empty.
const wrapped = defineAgent({ name: 'text-wrapped', model: { name: 'text-wrapped', textToolCalls: true }, instructions: 'Look orders up.', tools: [lookup] });
// At the iteration limit (one iteration) the summary, asked without tools, is a call written as text.
const atLimit = defineAgent({ name: 'text-at-limit', model: { name: 'text-at-limit', textToolCalls: true }, instructions: 'Look orders up.', tools: [lookup], maxIters: 1 });
const silentAtLimit = defineAgent({ name: 'text-silent-at-limit', model: { name: 'text-silent-at-limit', textToolCalls: true }, instructions: 'Look orders up.', tools: [lookup], maxIters: 1 });
const call = (orderId: string) => `{"name": "lookup_order", "arguments": {"order_id": "${orderId}"}}`;

const toolResults = (messages: { role: string }[]) => messages.filter((m): m is ToolMessage => m.role === 'tool').map((m) => m.content);

describe('tool calls a model writes in its text, read as tool calls and checked like native ones', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({
      agents: [textCaller, plain, wrapped, atLimit, silentAtLimit],
      byModel: {
        'text-wrapped': [`<json>\n${call('A-1')}\n</json>`, `Sure, I'll look that up:\n${call('A-2').slice(0, -1)}`, '<json></json>', 'A-1 and A-2 have shipped.'],
        'text-at-limit': [`Let me look A-1 up.\n<tool_call>${call('A-1')}</tool_call>`, `<tool_call>${call('A-1')}</tool_call>`],
        'text-silent-at-limit': [call('A-1'), call('A-1')],
        'text-caller': [
          '<tool_call>\n{"name": "track_order", "arguments": {"order_id": "A-1"}}\n</tool_call>',
          '{"name": "lookup_order", "arguments": {"order_id": "A-1", "priority": "high"}}',
          'Let me check.\n<tool_call>{"name": "lookup_order", "arguments": {"order_id": "A-1"}}</tool_call>',
          'A-1 has shipped.',
        ],
      },
    });
  });
  afterAll(() => env?.stop());

  test('an unknown tool and a forbidden field are error results the model reads; the corrected call runs; the answer is the text reply', async () => {
    const result = await (await env.client.start('text-caller', { prompt: 'Where is A-1?' })).result();
    expect(result.output).toBe('A-1 has shipped.');
    expect(toolResults(result.messages)).toEqual([
      'Error: Tool not found: track_order',
      "Error: Invalid arguments for tool 'lookup_order': unknown field(s) 'priority'; the tool takes 'order_id'. Send only the fields of its schema.",
      'A-1: shipped',
    ]);
    const calls = result.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls ?? [] : []));
    expect(calls.map((call) => call.name)).toEqual(['track_order', 'lookup_order', 'lookup_order']);
    expect(result.messages.find((m) => m.role === 'assistant' && m.content === 'Let me check.')).toBeDefined();
  });

  test('a call in <json> tags or after a lead-in runs, and markup left empty is an empty reply, never the answer', async () => {
    const result = await (await env.client.start('text-wrapped', { prompt: 'Where are A-1 and A-2?' })).result();
    expect(result.output).toBe('A-1 and A-2 have shipped.');
    expect(toolResults(result.messages)).toEqual(['A-1: shipped', 'A-2: shipped']);
    const texts = result.messages.flatMap((m) => (m.role === 'assistant' ? [m.content] : []));
    expect(texts).toEqual([null, "Sure, I'll look that up:", null, 'A-1 and A-2 have shipped.']);
    expect(result.messages.filter((m) => m.role === 'user').at(-1)!.content).toMatch(/^Your last reply was empty/);
  });

  test('a summary at the iteration limit that is only a call written as text is no answer: the output is the last text the model wrote', async () => {
    const result = await (await env.client.start('text-at-limit', { prompt: 'Where is A-1?' })).result();
    expect(result.status).toBe('max_iterations');
    expect(result.output).toBe('Let me look A-1 up.');
    expect(result.messages.at(-1)).toEqual(expect.objectContaining({ role: 'assistant', content: null }));
    expect(result.messages.at(-1)).not.toHaveProperty('toolCalls');
  });

  test('… or, when it wrote none, a note that no answer was given', async () => {
    const result = await (await env.client.start('text-silent-at-limit', { prompt: 'Where is A-1?' })).result();
    expect(result.status).toBe('max_iterations');
    expect(result.output).toBe('No answer: the iteration limit (1) was reached and the model wrote no summary.');
  });

  test('with the setting off, the same text is the final answer, as the model wrote it', async () => {
    const result = await (await env.client.start('text-plain', { prompt: 'Where is A-1?' })).result();
    expect(result.output).toContain('<tool_call>');
    expect(toolResults(result.messages)).toEqual([]);
  });
});

const refunds: string[] = [];
const refund = defineTool({
  name: 'refund',
  description: 'Refund an order.',
  input: z.object({ order_id: z.string(), amount: z.number() }),
  execute: ({ order_id, amount }) => {
    refunds.push(order_id);
    return `refunded ${amount} on ${order_id}`;
  },
});
const repeatScript = [
  { toolCalls: [{ name: 'refund', arguments: { order_id: 'R-1', amount: 5 } }] },
  { toolCalls: [{ name: 'refund', arguments: { amount: 5, order_id: 'R-1' } }] },
  'Refunded.',
];
const asker = defineAgent({ name: 'repeat-asker', model: 'repeat-asker', instructions: 'Refund.', tools: [refund], permissions: { ask: ['refund'] } });
const reuser = defineAgent({ name: 'repeat-reuser', model: 'repeat-reuser', instructions: 'Refund.', tools: [refund], repeatedCalls: 'reuse' });

describe('a call that repeats one the run already ran', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [asker, reuser], byModel: { 'repeat-asker': repeatScript, 'repeat-reuser': repeatScript } });
  });
  afterAll(() => env?.stop());

  test('is shown as such to the person who approves it: in the pending call, its event and the published waits', async () => {
    const run = await env.client.start('repeat-asker', { prompt: 'Refund R-1' });
    const first = await waitForPending(run);
    expect(first.pending[0]!.repeats).toBeUndefined();
    await run.approve(first.pending[0]!.callId);
    const second = await waitFor(async () => {
      const state = await run.state();
      return state.pending[0] && state.pending[0].callId !== first.pending[0]!.callId ? state : undefined;
    }, 'the second refund to ask');
    expect(second.pending[0]!.repeats).toEqual({ callId: first.pending[0]!.callId, preview: 'refunded 5 on R-1' });
    const asked = (await run.eventsAfter(0)).filter((event) => event.type === 'permission_requested');
    expect(asked.map((event) => (event as { repeats?: string }).repeats)).toEqual([undefined, first.pending[0]!.callId]);
    const listed = await waitFor(async () => (await env.client.waitingCalls({ query: `WorkflowId = '${run.workflowId}'` })).calls.find((call) => call.repeats), 'the repeat in the published waits');
    expect(listed.repeats).toEqual(second.pending[0]!.repeats);
    await run.deny(second.pending[0]!.callId, 'already refunded');
    expect((await run.result()).output).toBe('Refunded.');
  });

  test("an agent that reuses repeated calls answers from the earlier result: the tool runs once", async () => {
    refunds.length = 0;
    const result = await (await env.client.start('repeat-reuser', { prompt: 'Refund R-1' })).result();
    expect(refunds).toEqual(['R-1']);
    expect(toolResults(result.messages)[1]).toMatch(/^This call repeats call \S+, which already ran with the same arguments; it was not run again\. Its result:\nrefunded 5 on R-1$/);
  });
});
