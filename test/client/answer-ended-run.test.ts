import { z } from 'zod';
import { AgentClient } from '../../src/client/agent-client';
import { isClosedRunError, RunRequestRejectedError } from '../../src/client/request-rejected';
import { refusalText } from '../../src/inbox/send-answer';
import { elicitApproval } from '../../src/mcp-server/approval-elicitation';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { startTestWorker } from '../helpers/agent-test-env';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { waitForPending } from '../helpers/wait-for';

const refund = defineTool({
  name: 'refund',
  description: 'Refund an order.',
  input: z.object({ order_id: z.string(), amount: z.number() }),
  execute: ({ order_id, amount }) => `refunded ${amount} on ${order_id}`,
});
const desk = defineAgent({ name: 'ended-desk', model: 'ended-desk', instructions: 'Refund.', tools: [refund], permissions: { ask: ['refund'] } });

describe('an answer that reaches a run after it ended (the call answered elsewhere, the run went on to its end)', () => {
  let model: ScriptedModelServer;
  let client: AgentClient;
  let worker: { stop(): Promise<void> };
  const taskQueue = uniqueTaskQueue('ended');

  beforeAll(async () => {
    model = await startScriptedModelServer({
      byModel: {
        'ended-desk': (_request, info) => (info.toolResults.length === 0 ? { toolCalls: [{ name: 'refund', arguments: { order_id: 'ORD-1', amount: 30 } }] } : `Done: ${info.toolResults[0]!.content}`),
      },
    });
    client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    worker = await startTestWorker([desk], taskQueue, model.baseURL);
  });
  afterAll(async () => {
    await worker?.stop();
    await model?.close();
  });

  /** A run whose refund was approved and which then finished; the call's id. */
  async function endedRun() {
    const run = await client.start('ended-desk', { prompt: 'Refund ORD-1' });
    const [call] = (await waitForPending(run)).pending;
    await run.approve(call!.callId);
    expect((await run.result()).output).toBe('Done: refunded 30 on ORD-1');
    return { run, call: call! };
  }

  test("is the run's refusal in the client's words, for every kind of answer, still telling the server's own error", async () => {
    const { run, call } = await endedRun();
    for (const answer of [() => run.deny(call.callId), () => run.approve(call.callId), () => run.submit(call.callId, 'late'), () => run.delegate(call.callId, ['bob'])]) {
      const refusal = await answer().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(RunRequestRejectedError);
      expect((refusal as Error).message).toBe(`run ${run.workflowId} has ended; none of its calls waits for an answer`);
      expect(isClosedRunError(refusal)).toBe(true);
      // The inbox tells its reader so, in its own words.
      expect(refusalText(refusal)).toBe('The run has ended, so this call no longer waits: nothing was sent.');
    }
  });

  test('an approval form answered just then is refused, not left "waiting" on a run that ended', async () => {
    const { run, call } = await endedRun();
    const outcome = await elicitApproval(
      run,
      { runId: run.workflowId, callId: call.callId, tool: 'refund', input: call.input, reason: 'asked' },
      async () => ({ action: 'accept', content: { decision: 'deny' } }),
      { signal: new AbortController().signal },
    );
    expect(outcome).toEqual({ kind: 'refused', decision: 'deny' });
  });
});
