import { AGENT_TOTAL_TOKENS } from '../../src/common/search-attributes';
import { formatEvent } from '../../src/text/format-event';
import { defineAgent } from '../../src/toolkit/define-agent';
import { addTool } from '../fixtures/test-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';

const pricedAgent = defineAgent({
  name: 'priced',
  instructions: 'You add numbers.',
  tools: [addTool],
  model: {
    name: 'cheap',
    fallbacks: ['pricey'],
    prices: { cheap: { inputPerMillion: 1, outputPerMillion: 2 }, pricey: { inputPerMillion: 10, outputPerMillion: 40 } },
  },
});
const unpricedAgent = defineAgent({ name: 'unpriced', instructions: 'You add numbers.', tools: [addTool] });

describe('usage and cost', () => {
  let env: AgentTestEnv;

  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [pricedAgent, unpricedAgent] });
  });
  afterAll(async () => {
    await env?.stop();
  });

  test('are summed per call and per run over iterations and a fallback model of another price', async () => {
    env.model.setScript(
      [
        { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }], usage: { promptTokens: 1000, completionTokens: 100 } },
        { toolCalls: [{ name: 'add', arguments: { a: 3, b: 4 } }], usage: { promptTokens: 2000, completionTokens: 200 } },
        { text: 'never', faults: [{ status: 400, times: 10 }] },
      ],
      { model: 'cheap' },
    );
    env.model.setScript(['', '', { text: 'The sums are 3 and 7.', usage: { promptTokens: 3000, completionTokens: 300 } }], {
      model: 'pricey',
    });
    const run = await env.client.start('priced', { prompt: 'add 1+2, then 3+4' });
    const result = await run.result();

    const callCosts = [(1000 * 1 + 100 * 2) / 1e6, (2000 * 1 + 200 * 2) / 1e6, (3000 * 10 + 300 * 40) / 1e6];
    const totalCost = callCosts.reduce((a, b) => a + b, 0);
    expect(result.usage).toEqual({ promptTokens: 6000, completionTokens: 600, totalTokens: 6600 });
    expect(result.cost).toBeCloseTo(totalCost, 12);

    const events = await run.eventsAfter(0);
    const finished = events.flatMap((e) => (e.type === 'model_call_finished' ? [e] : []));
    expect(finished.map((e) => [e.model, e.usage.totalTokens])).toEqual([
      ['cheap', 1100],
      ['cheap', 2200],
      ['pricey', 3300],
    ]);
    finished.forEach((e, index) => expect(e.cost).toBeCloseTo(callCosts[index], 12));
    const end = events.at(-1)!;
    expect(end).toMatchObject({ type: 'run_finished', status: 'completed', usage: result.usage });
    expect(end.type === 'run_finished' && end.cost).toBeCloseTo(totalCost, 12);

    const state = await run.state();
    expect(state.usage).toEqual(result.usage);
    expect(state.cost).toBeCloseTo(totalCost, 12);

    expect(formatEvent(finished[2], run.workflowId)).toMatch(/◀ model pricey: answer "The sums are 3 and 7\." \(3300 tokens, cost 0\.042\)$/);
    expect(formatEvent(end, run.workflowId)).toMatch(/■ completed: The sums are 3 and 7\. \(6600 tokens, cost 0\.0456\)$/);

    const description = await run.handle.describe();
    expect(description.typedSearchAttributes.get(AGENT_TOTAL_TOKENS)).toBe(6600);
  });

  test('without a price table there is usage but no cost anywhere', async () => {
    env.model.setScript(['Nothing to add.']);
    const run = await env.client.start('unpriced', { prompt: 'hi' });
    const result = await run.result();
    expect(result.usage.totalTokens).toBeGreaterThan(0);
    expect(result).not.toHaveProperty('cost');
    expect(await run.state()).not.toHaveProperty('cost');
    const events = await run.eventsAfter(0);
    expect(events.some((e) => 'cost' in e)).toBe(false);
    expect((await run.handle.describe()).typedSearchAttributes.get(AGENT_TOTAL_TOKENS)).toBe(result.usage.totalTokens);
  });
});
