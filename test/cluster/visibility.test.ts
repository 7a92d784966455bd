import { Client } from '@temporalio/client';
import { defineAgent } from '../../src/toolkit/define-agent';
import { lookupTool, refundTool } from '../fixtures/approval-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { runCliCaptured } from '../helpers/cli-capture';
import { testConnection } from '../helpers/temporal-env';
import { waitFor, waitForPending } from '../helpers/wait-for';

// A name of its own: the cluster's visibility may hold runs of earlier test runs.
const AGENT = `lister-${Math.random().toString(36).slice(2, 8)}`;
const agent = defineAgent({ name: AGENT, instructions: 'Look up, refund when asked.', tools: [lookupTool, refundTool], permissions: { ask: ['refund'] } });

describe('search attributes and list through PostgreSQL visibility', () => {
  let env: AgentTestEnv;
  let client: Client;
  beforeAll(async () => {
    env = await startAgentTestEnv({
      agents: [agent],
      script: (_request, info) => {
        if (info.turnIndex > 0) return `answered: ${info.toolResults.map((r) => r.content).join(', ')}`;
        if (/refund/.test(info.lastUserText)) return { toolCalls: [{ name: 'refund', arguments: { order_id: 'R1', amount: 5 } }] };
        return { toolCalls: [{ name: 'lookup', arguments: { key: info.lastUserText } }] };
      },
    });
    client = new Client({ connection: await testConnection() });
  });
  afterAll(async () => env?.stop());

  const count = async (query: string) => (await client.workflow.count(`AgentName = '${AGENT}' AND ${query}`)).count;

  test('runs are found by agent, status, tokens, session and turns; list and the CLI show them', async () => {
    const done = await Promise.all(['a', 'b', 'c'].map((key) => env.client.start(AGENT, { prompt: key })));
    for (const run of done) expect((await run.result()).status).toBe('completed');
    const waiting = await env.client.start(AGENT, { prompt: 'refund R1' });
    await waitForPending(waiting, 1);
    const conversation = env.client.conversation(AGENT, { sessionId: `session-${AGENT}` });
    expect((await conversation.send('d')).output).toBe('answered: value of d');
    expect((await conversation.send('e')).turn).toBe(2);

    // Visibility follows the runs a moment later (the history service writes it after each change).
    await waitFor(async () => ((await count(`AgentStatus = 'completed' AND ExecutionStatus = 'Completed'`)) === 3 ? true : undefined), 'three completed runs in visibility', 30_000);
    await waitFor(async () => ((await count(`AgentStatus = 'awaiting_approval'`)) === 1 ? true : undefined), 'the waiting run in visibility', 30_000);
    await waitFor(async () => ((await count(`AgentSessionId = 'session-${AGENT}' AND AgentTurns >= 2`)) === 1 ? true : undefined), 'the conversation with 2 turns', 30_000);
    expect(await count('AgentTotalTokens > 0')).toBe(5);

    const listed = await env.client.list({ query: `AgentName = '${AGENT}'` });
    expect(listed).toHaveLength(5);
    expect(listed.find((r) => r.workflowId === waiting.workflowId)).toMatchObject({ agent: AGENT, status: 'awaiting_approval', temporalStatus: 'RUNNING' });
    expect(listed.filter((r) => r.status === 'completed').map((r) => r.workflowId).sort()).toEqual(done.map((r) => r.workflowId).sort());
    expect(listed.find((r) => r.sessionId === `session-${AGENT}`)).toMatchObject({ turns: 2 });

    const common = ['--address', process.env.TEMPORAL_TEST_ADDRESS!, '--task-queue', env.taskQueue];
    const cli = await runCliCaptured(['list', '--agent', AGENT, '--status', 'awaiting_approval', '--json', ...common]);
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.out[0]!)).toEqual([expect.objectContaining({ workflowId: waiting.workflowId, status: 'awaiting_approval' })]);

    await waiting.approve((await waiting.state()).pending[0]!.callId);
    expect((await waiting.result()).output).toBe('answered: refunded 5 on R1');
    await waitFor(async () => ((await count(`AgentStatus = 'completed'`)) === 4 ? true : undefined), 'the approved run completed in visibility', 30_000);
    await conversation.end();
  });
});
