import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { AgentClient } from '../../src/client/agent-client';
import type { AgentEvent } from '../../src/common/events';
import { createChatModel } from '../../src/model/create-chat-model';
import { agentWorkflowSinks } from '../../src/telemetry/agent-workflow-sinks';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { defineAgent } from '../../src/toolkit/define-agent';
import { createWorker, type AgentWorker } from '../../src/worker/create-worker';
import { refundsIssued, refundTool } from '../fixtures/approval-tools';
import { uniqueTaskQueue, workflowBundle } from '../helpers/temporal-env';
import { timeSkippingServerPath } from '../helpers/time-skipping-env';
import { maybeRecordHistory } from '../helpers/record-history';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

const HOUR_MS = 60 * 60 * 1000;

const remindful = defineAgent({
  name: 'remindful-refunds',
  instructions: 'Refund when asked.',
  tools: [refundTool],
  permissions: { ask: ['refund'] },
  approvalTimeout: '3d',
  approvals: { approvers: ['alice'], remind: ['4h', '1d'], escalate: { after: '2d', to: ['group:finance-leads'] }, groups: { 'finance-leads': ['fiona'] } },
});

const serverPath = timeSkippingServerPath();
const timeSkippingTest = serverPath ? test : test.skip;

describe('reminders and escalation as durable timers, on the time-skipping test server', () => {
  let env: TestWorkflowEnvironment;
  let model: ScriptedModelServer;
  let hook: WebhookReceiver;
  let slack: WebhookReceiver;
  let client: AgentClient;
  let taskQueue: string;
  let current: { worker: AgentWorker; running: Promise<void> } | undefined;

  async function startWorker(): Promise<void> {
    const worker = await createWorker({
      agents: [remindful],
      connection: env.nativeConnection,
      config: { taskQueue, defaultModel: 'scripted-model', namespace: env.namespace ?? 'default' },
      model: createChatModel({ baseURL: model.baseURL, apiKey: 'test-key', defaultModel: 'scripted-model' }),
      workflowBundle: workflowBundle(),
      notifications: { webhooks: [{ url: hook.url, includeArguments: true }, { url: slack.url, format: 'slack' }], inboxUrl: 'https://inbox.example.com' },
      // No cache, so no sticky queue: every workflow task replays the run from its history, and a
      // stopped worker leaves no task waiting for it (the time-skipping server would not skip past one).
      workerOptions: { maxCachedWorkflows: 0 },
      log: () => undefined,
    });
    current = { worker, running: worker.run() };
  }

  async function stopWorker(): Promise<void> {
    if (!current) return;
    current.worker.shutdown();
    await current.running;
    current = undefined;
  }

  beforeAll(async () => {
    if (!serverPath) return;
    env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: serverPath } } });
    model = await startScriptedModelServer({
      script: (_req, info) =>
        info.turnIndex === 0 ? { toolCalls: [{ name: 'refund', arguments: { order_id: info.lastUserText, amount: 40 } }] } : `Results: ${info.toolResults.map((r) => r.content).join(' | ')}`,
    });
    hook = await startWebhookReceiver();
    slack = await startWebhookReceiver();
    taskQueue = uniqueTaskQueue('reminders');
    await startWorker();
    client = await AgentClient.connect({ connection: env.connection, taskQueue, namespace: env.namespace ?? 'default' });
  }, 60_000);
  afterAll(async () => {
    await stopWorker();
    await model?.close();
    await hook?.close();
    await slack?.close();
    await env?.teardown();
  });

  const noticesOf = (workflowId: string, type?: string) => hook.posts.map((p) => p.body).filter((body) => body.workflowId === workflowId && (!type || body.type === type));
  const noticeCount = (workflowId: string, type: string, count: number) =>
    waitFor(async () => (noticesOf(workflowId, type).length >= count ? noticesOf(workflowId, type) : undefined), `${count} ${type} notice(s)`, 30_000);

  timeSkippingTest('reminders at 4h and 1d and an escalation at 2d, each sent once, across a worker restart; the escalation lets the group answer', async () => {
    refundsIssued.length = 0;
    const run = await client.start('remindful-refunds', { prompt: 'T1' });
    const { pending } = await waitForPending(run);
    const callId = pending[0]!.callId;
    await noticeCount(run.workflowId, 'call.waiting', 1);

    await env.sleep('5 hours');
    const [first] = await noticeCount(run.workflowId, 'call.reminded', 1);
    expect(first).toMatchObject({ event: 'reminded', callId, reminder: 1, approvers: ['alice'], input: { order_id: 'T1', amount: 40 } });

    // Another worker takes the run over mid-wait: what was sent is in history, only the next falls due.
    await stopWorker();
    await startWorker();
    await env.sleep('20 hours');
    const reminders = await noticeCount(run.workflowId, 'call.reminded', 2);
    expect(reminders[1]).toMatchObject({ reminder: 2, approvers: ['alice'] });
    expect((await run.state()).pending[0]).toMatchObject({ reminded: 2 });
    // Fiona is not an approver before the escalation.
    await expect(run.approve(callId, { answeredBy: 'fiona' })).rejects.toThrow("'fiona' may not answer");

    await env.sleep('1 day');
    const [escalated] = await noticeCount(run.workflowId, 'call.escalated', 1);
    expect(escalated).toMatchObject({ event: 'escalated', callId, approvers: ['alice', 'group:finance-leads'] });
    expect((await run.state()).pending[0]).toMatchObject({ approvers: ['alice', 'group:finance-leads'], escalated: true, reminded: 2 });

    await run.approve(callId, { answeredBy: 'fiona' });
    const result = await env.client.workflow.getHandle(run.workflowId).result();
    expect(result.output).toBe('Results: refunded 40 on T1');
    expect(refundsIssued).toEqual([{ orderId: 'T1', amount: 40 }]);
    await noticeCount(run.workflowId, 'call.answered', 1);

    const events: AgentEvent[] = await run.eventsAfter(0);
    const asked = Date.parse(events.find((e) => e.type === 'permission_requested')!.at);
    const at = (e: AgentEvent) => Date.parse(e.at) - asked;
    const reminded = events.filter((e) => e.type === 'approval_reminded');
    expect(reminded.map((e) => (e as { reminder: number }).reminder)).toEqual([1, 2]);
    expect(at(reminded[0]!)).toBeGreaterThanOrEqual(4 * HOUR_MS);
    expect(at(reminded[0]!)).toBeLessThan(5 * HOUR_MS);
    expect(at(reminded[1]!)).toBeGreaterThanOrEqual(24 * HOUR_MS);
    const escalations = events.filter((e) => e.type === 'approval_escalated');
    expect(escalations).toHaveLength(1);
    expect(at(escalations[0]!)).toBeGreaterThanOrEqual(48 * HOUR_MS);
    expect(events.find((e) => e.type === 'permission_decided')).toMatchObject({ behavior: 'allow', answeredBy: 'fiona' });

    // Each notice exactly once, the restart included.
    const kinds = noticesOf(run.workflowId).map((body) => body.type);
    expect(kinds.filter((k) => k === 'call.waiting')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'call.reminded')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'call.escalated')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'call.answered')).toHaveLength(1);

    // The Slack bodies say what happened, in words.
    const texts = slack.posts.map((p) => p.body.text as string).filter((text) => text.includes(run.workflowId));
    expect(texts).toEqual([
      expect.stringMatching(/^Agent \*remindful-refunds\* waits for approval of `refund` .*It may be answered by alice\.$/),
      expect.stringMatching(/^Reminder: agent \*remindful-refunds\* still waits for approval of `refund` .*, to be answered by alice\.$/),
      expect.stringMatching(/^Reminder 2: agent \*remindful-refunds\* still waits/),
      expect.stringMatching(/^Escalated to alice, finance-leads: agent \*remindful-refunds\* still waits for approval of `refund` .*; nobody answered in time\.$/),
      expect.stringMatching(/^approved by fiona: approval of `refund`/),
    ]);

    await maybeRecordHistory(run, 'approval-reminded-escalated');
    const history = await run.handle.fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: workflowBundle(), sinks: agentWorkflowSinks() }, history, run.workflowId);
  }, 120_000);
});
