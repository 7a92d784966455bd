import { defineAgent } from '../../src/toolkit/define-agent';
import { echoTool } from '../fixtures/test-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';

const ITERATIONS = 300;

const longAgent = defineAgent({ name: 'long-runner', instructions: 'Echo until done.', tools: [echoTool], maxIters: 1000 });

describe('continue-as-new', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({
      agents: [longAgent],
      // Deterministic under retries: the turn index counts the assistant messages of the conversation.
      script: (_request, info) =>
        info.turnIndex < ITERATIONS
          ? { toolCalls: [{ name: 'echo', arguments: { text: `step ${info.turnIndex + 1}` } }] }
          : `done after ${info.turnIndex} tool steps, last: ${info.toolResults[0]?.content}`,
    });
  });
  afterAll(async () => env?.stop());

  test(`a ${ITERATIONS}-iteration run continues as new and ends with the right answer`, async () => {
    const run = await env.client.start('long-runner', { prompt: 'go', continueAsNewAfterEvents: 400 });
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(result.iterations).toBe(ITERATIONS + 1);
    expect(result.output).toBe(`done after ${ITERATIONS} tool steps, last: step ${ITERATIONS}`);
    // The whole conversation was carried: system, user, then a call and a result per step, then the answer.
    expect(result.messages).toHaveLength(2 + 2 * ITERATIONS + 1);
    const runs = [];
    for await (const execution of env.client.client.workflow.list({ query: `WorkflowId = '${run.workflowId}'` })) {
      runs.push(execution.status.name);
    }
    expect(runs.filter((s) => s === 'CONTINUED_AS_NEW').length).toBeGreaterThanOrEqual(3);
    expect(runs).toContain('COMPLETED');
  }, 300_000);
});
