import { defineAgent } from '../../src/toolkit/define-agent';
import { echoTool } from '../fixtures/test-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';

const STEPS = 50;
const agent = defineAgent({ name: 'chatty', instructions: 'Echo long texts.', tools: [echoTool], maxIters: 60 });

describe('history grows with the conversation once, not with every model call', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({
      agents: [agent],
      script: (_req, info) =>
        info.turnIndex < STEPS ? { toolCalls: [{ name: 'echo', arguments: { text: `${info.turnIndex} ${'x'.repeat(2000)}` } }] } : 'done',
    });
  });
  afterAll(async () => env?.stop());

  test('each model call carries only the messages added since the previous one, so its size stays flat', async () => {
    const run = await env.client.start('chatty', { prompt: 'echo a lot' });
    const result = await run.result();
    expect(result.output).toBe('done');
    // The model still got the whole conversation: the last request carried every echoed text.
    const last = env.model.requests.at(-1)!.body.messages;
    expect(last.filter((m) => m.role === 'tool')).toHaveLength(STEPS);

    const history = (await run.handle.fetchHistory()).events ?? [];
    const inputs = history
      .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callModel')
      .map((e) => (e.activityTaskScheduledEventAttributes!.input!.payloads ?? []).reduce((n, p) => n + (p.data?.length ?? 0), 0));
    expect(inputs).toHaveLength(STEPS + 1);
    // About 200 KB of conversation by the end, yet the 50th call is scheduled with as many bytes as
    // the 5th: each carries the one reply and the one result added since the call before.
    expect(Math.abs(inputs[49]! - inputs[4]!)).toBeLessThan(100);
    expect(Math.max(...inputs.slice(1))).toBeLessThan(6000);
    expect(Math.max(...inputs.slice(1)) - Math.min(...inputs.slice(1))).toBeLessThan(200);
  });
});
