import { z } from 'zod';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { toolMessages } from '../helpers/tool-messages';

const lookups: string[] = [];
const lookup = defineTool({
  name: 'stock_level',
  description: 'How many of an item are in stock.',
  input: z.object({ item: z.string() }),
  readOnly: true,
  execute: async ({ item }) => {
    lookups.push(item);
    return `${item}: 7 in stock`;
  },
});

// The model asks the same lookup twice (keys in another order the second time), then answers.
const sameLookupTwice = [
  { toolCalls: [{ name: 'stock_level', arguments: { item: 'mug' } }] },
  { toolCalls: [{ name: 'stock_level', arguments: { item: 'mug' } }] },
  'There are 7 mugs.',
];
const reusing = defineAgent({ name: 'stock-reuse', model: 'stock-reuse', instructions: 'Answer from the stock.', tools: [lookup] });
const polling = defineAgent({ name: 'stock-poll', model: 'stock-poll', instructions: 'Answer from the stock.', tools: [lookup], repeatedReadOnlyCalls: 'run' });

describe('a read-only call repeated with the same arguments', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [reusing, polling], byModel: { 'stock-reuse': sameLookupTwice, 'stock-poll': sameLookupTwice } });
  });
  afterAll(() => env?.stop());
  beforeEach(() => {
    lookups.length = 0;
  });

  test('is answered from the earlier result with a note to the model: the tool runs once', async () => {
    const result = await (await env.client.start('stock-reuse', { prompt: 'How many mugs?' })).result();
    expect(result.output).toBe('There are 7 mugs.');
    expect(lookups).toEqual(['mug']);
    const [first, second] = toolMessages(result.messages);
    expect(first).toMatchObject({ content: 'mug: 7 in stock', state: 'success' });
    expect(second!.content).toBe(`This call repeats call ${first!.toolCallId}, which already ran with the same arguments; it was not run again. Its result:\nmug: 7 in stock`);
  });

  test("runs again for an agent with repeatedReadOnlyCalls: 'run'", async () => {
    const result = await (await env.client.start('stock-poll', { prompt: 'How many mugs?' })).result();
    expect(result.output).toBe('There are 7 mugs.');
    expect(lookups).toEqual(['mug', 'mug']);
  });
});
