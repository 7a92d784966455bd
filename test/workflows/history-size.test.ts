import { defineAgent } from '../../src/toolkit/define-agent';
import { echoTool } from '../fixtures/test-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';

const STEPS = 20;
const agent = defineAgent({ name: 'chatty', instructions: 'Echo long texts.', tools: [echoTool], maxIters: 50 });

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

  test('each model call carries a reference to the conversation, whose size stays flat', async () => {
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
    // About 80 KB of conversation by the end, yet every scheduled call stays small and the same size.
    expect(Math.max(...inputs)).toBeLessThan(3000);
    expect(Math.max(...inputs) - Math.min(...inputs)).toBeLessThan(200);
  });
});
