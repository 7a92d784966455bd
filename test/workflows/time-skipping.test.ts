import { WorkflowFailedError } from '@temporalio/client';
import type { ApplicationFailure } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import { FailureTypes } from '../../src/common/failures';
import { SERVING_WORKER_TIMEOUT } from '../../src/workflows/run/describe-agent';
import type { AgentEvent } from '../../src/common/events';
import type { ToolMessage } from '../../src/common/messages';
import { defineAgent } from '../../src/toolkit/define-agent';
import { refundsIssued, refundTool } from '../fixtures/approval-tools';
import { historyFromJson, historyToJson } from '../helpers/history-json';
import { maybeRecordHistory } from '../helpers/record-history';
import { workflowBundle } from '../helpers/temporal-env';
import { startTimeSkippingAgentEnv, timeSkippingServerPath, type TimeSkippingAgentEnv } from '../helpers/time-skipping-env';
import { waitForPending } from '../helpers/wait-for';
import { agentWorkflowSinks } from '../../src/telemetry/agent-workflow-sinks';

const DAY_MS = 24 * 60 * 60 * 1000;

const patientShop = defineAgent({
  name: 'patient-shop',
  instructions: 'Refund when asked.',
  tools: [refundTool],
  permissions: { ask: ['refund'] },
  approvalTimeout: '7d',
});

const serverPath = timeSkippingServerPath();
if (!serverPath) {
  console.log('time-skipping tests skipped: TEMPORAL_TEST_SERVER_PATH is unset (global setup found no temporal-test-server)');
}
const timeSkippingTest = serverPath ? test : test.skip;

function eventAt(events: AgentEvent[], type: AgentEvent['type']): number {
  const event = events.find((e) => e.type === type);
  if (!event) throw new Error(`no ${type} event`);
  return Date.parse(event.at);
}

function toolMessages(messages: { role: string }[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => m.role === 'tool');
}

describe('approvals that take days, on the time-skipping test server', () => {
  let ts: TimeSkippingAgentEnv;
  beforeAll(async () => {
    if (!serverPath) return;
    ts = await startTimeSkippingAgentEnv({
      agents: [patientShop],
      script: (_req, info) =>
        info.turnIndex === 0
          ? { toolCalls: [{ name: 'refund', arguments: { order_id: info.lastUserText, amount: 40 } }] }
          : `Results: ${info.toolResults.map((r) => r.content).join(' | ')}`,
    });
  });
  afterAll(async () => ts?.stop());
  beforeEach(() => {
    refundsIssued.length = 0;
  });

  timeSkippingTest('an approval that arrives after 3 days completes the run', async () => {
    const started = Date.now();
    const run = await ts.client.start('patient-shop', { prompt: 'T1' });
    const { pending } = await waitForPending(run);
    // The upsert of our custom search attributes works here once createWorker registered them.
    const description = await run.handle.describe();
    expect(description.typedSearchAttributes.get({ name: 'AgentStatus', type: 'KEYWORD' } as never)).toBe('awaiting_approval');
    await ts.env.sleep('3 days');
    expect((await run.state()).status).toBe('awaiting_approval');
    await run.approve(pending[0].callId);
    const result = await ts.env.client.workflow.getHandle(run.workflowId).result();
    const realMs = Date.now() - started;
    console.log(`approval after 3 days of workflow time: ${realMs} ms of real time`);

    expect(result.output).toBe('Results: refunded 40 on T1');
    expect(refundsIssued).toEqual([{ orderId: 'T1', amount: 40 }]);
    const events = await run.eventsAfter(0);
    const waited = eventAt(events, 'permission_decided') - eventAt(events, 'permission_requested');
    expect(waited).toBeGreaterThanOrEqual(3 * DAY_MS);
    expect(waited).toBeLessThan(7 * DAY_MS);
    expect(events.find((e) => e.type === 'permission_decided')).toMatchObject({ behavior: 'allow', by: 'user' });
    expect(realMs).toBeLessThan(30_000);
  });

  timeSkippingTest("a 7d approval timeout denies the call and the model sees 'approval timed out after 7d'", async () => {
    const started = Date.now();
    const run = await ts.client.start('patient-shop', { prompt: 'T2' });
    await waitForPending(run);
    // Awaiting the result through the time-skipping client lets the server skip to the timer.
    const result = await ts.env.client.workflow.getHandle(run.workflowId).result();
    const realMs = Date.now() - started;
    console.log(`7d approval timeout: ${realMs} ms of real time`);

    const denial = 'Permission denied: approval timed out after 7d';
    expect(toolMessages(result.messages)).toEqual([expect.objectContaining({ content: denial, state: 'denied' })]);
    expect(result.output).toBe(`Results: ${denial}`);
    const lastRequest = ts.model.requests[ts.model.requests.length - 1].body;
    expect(lastRequest.messages.some((m) => m.role === 'tool' && m.content === denial)).toBe(true);
    expect(refundsIssued).toHaveLength(0);
    const events = await run.eventsAfter(0);
    expect(events.find((e) => e.type === 'permission_decided')).toMatchObject({ behavior: 'deny', by: 'timeout' });
    expect(eventAt(events, 'permission_decided') - eventAt(events, 'permission_requested')).toBeGreaterThanOrEqual(7 * DAY_MS);
    expect(realMs).toBeLessThan(30_000);

    // The history of the time-skipping server replays (as the JSON a fixture would hold).
    const history = historyFromJson(JSON.parse(historyToJson(await run.handle.fetchHistory())));
    await Worker.runReplayHistory({ workflowBundle: workflowBundle(), sinks: agentWorkflowSinks() }, history, run.workflowId);
    await maybeRecordHistory(run, 'approval-timed-out');
  });
});

describe('a run whose agent no worker of its task queue serves, on the time-skipping test server', () => {
  let ts: TimeSkippingAgentEnv;
  beforeAll(async () => {
    if (!serverPath) return;
    ts = await startTimeSkippingAgentEnv({ agents: [patientShop], script: () => 'never asked' });
  });
  afterAll(async () => ts?.stop());

  timeSkippingTest(`fails with Agent.NoWorkerServes after ${SERVING_WORKER_TIMEOUT}, naming the agent, the queue and what its worker serves`, async () => {
    const started = Date.now();
    const run = await ts.client.start('no-such-agent', { prompt: 'hello' });
    const error = await ts.env.client.workflow.getHandle(run.workflowId).result().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    const cause = (error as WorkflowFailedError).cause as ApplicationFailure;
    expect(cause.type).toBe(FailureTypes.noWorkerServes);
    expect(cause.message).toContain(`No worker of task queue '${ts.taskQueue}' serves agent 'no-such-agent' (waited ${SERVING_WORKER_TIMEOUT};`);
    expect(cause.message).toContain('serves: patient-shop');
    expect(ts.model.requests).toHaveLength(0);
    const description = await run.handle.describe();
    expect(description.typedSearchAttributes.get({ name: 'AgentStatus', type: 'KEYWORD' } as never)).toBe('failed');
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});
