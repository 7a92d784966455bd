import { Connection } from '@temporalio/client';
import { AgentClient } from '../../src/client/agent-client';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { defineAgent } from '../../src/toolkit/define-agent';
import { refundsIssued, refundTool } from '../fixtures/approval-tools';
import { startDedicatedDevServer, startWorkerAt, temporalCliPath, type DedicatedDevServer } from '../helpers/dedicated-dev-server';
import { maybeRecordHistory } from '../helpers/record-history';
import { uniqueTaskQueue } from '../helpers/temporal-env';
import { waitFor, waitForPending } from '../helpers/wait-for';

const restartShop = defineAgent({
  name: 'restart-shop',
  instructions: 'Refund when asked.',
  tools: [refundTool],
  permissions: { ask: ['refund'] },
});

const cliPath = temporalCliPath();
if (!cliPath) console.log('server restart test skipped: TEMPORAL_TEST_CLI is unset (the tests run against an external server)');
const restartTest = cliPath ? test : test.skip;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('nothing is held while a run waits for approval', () => {
  let server: DedicatedDevServer | undefined;
  let model: ScriptedModelServer | undefined;
  let connection: Connection | undefined;
  const workers: { stop(): Promise<void> }[] = [];

  afterAll(async () => {
    for (const worker of workers.splice(0)) await worker.stop();
    await connection?.close();
    await model?.close();
    await server?.dispose();
  });

  restartTest('every worker and the server stop while the run waits; after a restart the approved call runs once', async () => {
    refundsIssued.length = 0;
    model = await startScriptedModelServer({
      script: (_req, info) =>
        info.turnIndex === 0
          ? { toolCalls: [{ name: 'refund', arguments: { order_id: 'R1', amount: 90 } }] }
          : `Results: ${info.toolResults.map((r) => r.content).join(' | ')}`,
    });
    server = await startDedicatedDevServer(cliPath!);
    const taskQueue = uniqueTaskQueue('restart');
    workers.push(await startWorkerAt(server.address, [restartShop], taskQueue, model.baseURL));
    connection = await Connection.connect({ address: server.address });
    const client = await AgentClient.connect({ connection, taskQueue });

    const run = await client.start('restart-shop', { prompt: 'refund R1' });
    const { pending } = await waitForPending(run);
    const callId = pending[0].callId;
    expect(model.requests).toHaveLength(1);

    for (const worker of workers.splice(0)) await worker.stop();
    const firstPid = server.pid()!;
    await server.stop();
    expect(isRunning(firstPid)).toBe(false);
    await server.start();
    expect(server.pid()).not.toBe(firstPid);
    workers.push(await startWorkerAt(server.address, [restartShop], taskQueue, model.baseURL));

    // A new worker in a new server rebuilds the waiting run from its history alone.
    const state = await waitFor(() => run.state().catch(() => undefined), 'the state query after the restart');
    expect(state.status).toBe('awaiting_approval');
    expect(state.pending).toEqual([expect.objectContaining({ callId, tool: 'refund', input: { order_id: 'R1', amount: 90 } })]);
    expect(refundsIssued).toHaveLength(0);

    await run.approve(callId, { input: { order_id: 'R1', amount: 25 } });
    const result = await run.result();
    expect(result.output).toBe('Results: refunded 25 on R1');
    expect(refundsIssued).toEqual([{ orderId: 'R1', amount: 25 }]);
    const history = await run.handle.fetchHistory();
    const toolRuns = history.events!.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'executeTool');
    expect(toolRuns).toHaveLength(1);
    // The model was not asked again on replay: one call before the wait, one after the tool.
    expect(model.requests).toHaveLength(2);
    await maybeRecordHistory(run, 'approval-after-server-restart');
  }, 180_000);
});
