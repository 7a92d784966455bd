import { temporal } from '@temporalio/proto';
import { z } from 'zod';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';

const REPORT_CHARS = 58_000;
const reportTool = defineTool({
  name: 'report',
  description: 'A long report.',
  input: z.object({ part: z.number() }),
  readOnly: true,
  execute: ({ part }) => `part ${part}: ${'r'.repeat(REPORT_CHARS - 12)}`,
});
const chatty = defineAgent({ name: 'chatty', instructions: 'Answer briefly.', tools: [reportTool], maxIters: 100, maxResultChars: 60_000 });

const EventType = temporal.api.enums.v1.EventType;
const bytesOf = (events: temporal.api.history.v1.IHistoryEvent[]) => temporal.api.history.v1.History.encode({ events }).finish().length;

describe('long conversations', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({
      agents: [chatty],
      script: (request, info) => {
        const text = info.lastUserText;
        if (text.startsWith('reports ')) {
          const wanted = Number(text.slice('reports '.length));
          const got = request.messages.filter((m) => m.role === 'tool').length;
          return got < wanted ? { toolCalls: [{ name: 'report', arguments: { part: got + 1 } }] } : { text: `read ${got} parts` };
        }
        return { text: `echo: ${text}` };
      },
    });
  });
  afterAll(async () => env?.stop());

  test('300 turns across several continue-as-new runs: every answer arrives, history per turn stays flat', async () => {
    const conversation = env.client.conversation('chatty', { sessionId: 'three-hundred', continueAsNewAfterEvents: 400 });
    for (let turn = 1; turn <= 300; turn++) {
      const answer = await conversation.send(`m${turn}`);
      expect(answer).toMatchObject({ turn, output: `echo: m${turn}` });
    }
    expect(await conversation.end()).toMatchObject({ reason: 'ended', turns: 300 });

    const runs: { turns: number; perTurn: number; startBytes: number }[] = [];
    for await (const execution of env.client.client.workflow.list({ query: `WorkflowId = '${conversation.workflowId}'` })) {
      const events = (await env.client.client.workflow.getHandle(conversation.workflowId, execution.runId).fetchHistory()).events ?? [];
      const turns = events.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED).length;
      if (execution.status.name !== 'CONTINUED_AS_NEW' || turns === 0) continue;
      // The first event (the run's input) and the last (the next run's) carry the conversation so far; the rest is the turns'.
      const startBytes = bytesOf(events.slice(0, 1));
      runs.push({ turns, perTurn: bytesOf(events.slice(1, -1)) / turns, startBytes });
    }
    expect(runs.length).toBeGreaterThanOrEqual(3);
    const perTurn = runs.map((r) => r.perTurn);
    // The same per turn in every run (within 10%), however long the conversation has grown.
    expect(Math.max(...perTurn) / Math.min(...perTurn)).toBeLessThan(1.1);
  }, 180_000);

  test('a conversation of more than 4 MiB of tool results completes and answers the next message', async () => {
    const conversation = env.client.conversation('chatty', { sessionId: 'four-mib', maxItersPerTurn: 100 });
    const parts = 75;
    expect(await conversation.send(`reports ${parts}`)).toMatchObject({ status: 'completed', output: `read ${parts} parts` });
    expect(parts * REPORT_CHARS).toBeGreaterThan(4 * 1024 * 1024);
    expect(await conversation.send('still with me?')).toMatchObject({ turn: 2, output: 'echo: still with me?' });
    const state = await conversation.run.state();
    const total = 1 + 1 + 2 * parts + 1 + 2;
    expect(state.messageCount).toBe(total);
    // The state holds only the newest messages; the public paged read gives any range, the oldest included.
    expect(state.messages.length).toBeLessThan(total);
    const first = await conversation.messages({ from: 0, to: 3 });
    expect(first).toMatchObject({ from: 0, to: 3, total });
    expect(first.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant']);
    expect(first.messages[1]).toMatchObject({ content: `reports ${parts}` });
    const whole = await conversation.messages();
    expect(whole.messages).toHaveLength(total);
    expect(whole.messages[total - 1]).toMatchObject({ role: 'assistant', content: 'echo: still with me?' });
    expect((await conversation.messages({ from: total - 2 })).messages).toEqual(whole.messages.slice(total - 2));
    expect(await conversation.end()).toMatchObject({ reason: 'ended', turns: 2 });
  }, 180_000);
});
