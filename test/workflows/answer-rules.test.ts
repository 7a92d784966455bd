import { Worker } from '@temporalio/worker';
import { AgentClient } from '../../src/client/agent-client';
import { RunRequestRejectedError } from '../../src/client/request-rejected';
import { argumentsDigest } from '../../src/common/arguments-digest';
import { approveSignal, denySignal } from '../../src/common/definitions';
import type { AgentEvent } from '../../src/common/events';
import { agentWorkflowSinks } from '../../src/telemetry/agent-workflow-sinks';
import type { ModelScript, ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import { defineAgent } from '../../src/toolkit/define-agent';
import { lookupTool, payTool, refundsIssued, refundTool } from '../fixtures/approval-tools';
import { startTestWorker } from '../helpers/agent-test-env';
import { testConnection, uniqueTaskQueue, workflowBundle } from '../helpers/temporal-env';
import { maybeRecordHistory } from '../helpers/record-history';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

const guarded = defineAgent({
  name: 'guarded-refunds',
  instructions: 'Refund when asked, then pay.',
  tools: [refundTool, payTool, lookupTool],
  permissions: { ask: ['refund', 'pay'] },
  approvals: { tools: { refund: { approvers: ['alice', 'group:finance-leads'] } }, groups: { 'finance-leads': ['fiona'] } },
});
/** The same agent as a later worker defines it: refunds allowed outright. */
const relaxed = defineAgent({
  name: 'guarded-refunds',
  instructions: 'Refund when asked, then pay.',
  tools: [refundTool, payTool, lookupTool],
  permissions: { allow: ['refund'], ask: ['pay'] },
});

/** `refund:ID` refunds ID; `two:ID` refunds ID, then pays 5; `denied:ID` refunds ID, looks up six keys, pays 1. */
const script: ModelScript = (_request, info) => {
  const [kind, id] = info.lastUserText.split(':') as [string, string];
  const turn = info.turnIndex;
  const results = () => `Results: ${info.toolResults.map((r) => r.content).join(' | ')}`;
  if (turn === 0) return { toolCalls: [{ name: 'refund', arguments: { order_id: id, amount: 40 } }] };
  if (kind === 'two' && turn === 1) return { toolCalls: [{ name: 'pay', arguments: { amount: 5 } }] };
  if (kind === 'denied' && turn <= 6) return { toolCalls: [{ name: 'lookup', arguments: { key: `k${turn}` } }] };
  if (kind === 'denied' && turn === 7) return { toolCalls: [{ name: 'pay', arguments: { amount: 1 } }] };
  return results();
};

function ofType<T extends AgentEvent['type']>(events: AgentEvent[], type: T): Extract<AgentEvent, { type: T }>[] {
  return events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunRequestRejectedError);
  return (error as Error).message;
}

describe('answer rules: who may answer, answers bound to what was asked, delegation', () => {
  let model: ScriptedModelServer;
  let hook: WebhookReceiver;
  let worker: { stop(): Promise<void> };
  let client: AgentClient;
  let taskQueue: string;

  beforeAll(async () => {
    model = await startScriptedModelServer({ script });
    hook = await startWebhookReceiver();
    taskQueue = uniqueTaskQueue('answer-rules');
    worker = await startTestWorker([guarded], taskQueue, model.baseURL, undefined, {}, { notifications: { webhooks: [{ url: hook.url }] } });
    client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
  });
  afterAll(async () => {
    await worker?.stop();
    await model?.close();
    await hook?.close();
  });
  beforeEach(() => {
    refundsIssued.length = 0;
  });

  const postsOf = (workflowId: string) => hook.posts.map((p) => p.body).filter((body) => body.workflowId === workflowId);

  test('the waiting call publishes its arguments digest, rules version and approvers; a stale answer is refused and changes nothing', async () => {
    const run = await client.start('guarded-refunds', { prompt: 'refund:B1' });
    const { pending } = await waitForPending(run);
    const [call] = pending;
    expect(call).toMatchObject({ argumentsDigest: argumentsDigest({ order_id: 'B1', amount: 40 }), rulesVersion: expect.stringMatching(/^[0-9a-f]{64}$/), approvers: ['alice', 'group:finance-leads'] });
    const listed = await waitFor(async () => (await client.waitingCalls({ query: `WorkflowId = '${run.workflowId}'` })).calls[0], 'the published wait');
    expect(listed).toMatchObject({ argumentsDigest: call.argumentsDigest, rulesVersion: call.rulesVersion, approvers: ['alice', 'group:finance-leads'] });

    expect(await refusal(run.approve(call.callId, { answeredBy: 'alice', argumentsDigest: argumentsDigest({ order_id: 'B1', amount: 4000 }) }))).toContain('other arguments');
    expect(await refusal(run.approve(call.callId, { answeredBy: 'alice', rulesVersion: 'a'.repeat(64) }))).toContain('other rules');
    expect((await run.state()).pending).toEqual([expect.objectContaining({ callId: call.callId })]);
    expect(refundsIssued).toEqual([]);

    await run.approve(call.callId, { answeredBy: 'alice', argumentsDigest: call.argumentsDigest, rulesVersion: call.rulesVersion });
    expect((await run.result()).output).toBe('Results: refunded 40 on B1');
    await maybeRecordHistory(run, 'answer-rules-stale-refused');
    expect(refundsIssued).toEqual([{ orderId: 'B1', amount: 40 }]);
    const waiting = await waitFor(async () => postsOf(run.workflowId).find((body) => body.type === 'call.waiting'), 'the waiting notice');
    expect(waiting).toMatchObject({ approvers: ['alice', 'group:finance-leads'] });
  });

  test('an answer from someone who may not answer is refused with the reason (update and signal); a member of the group then answers', async () => {
    const run = await client.start('guarded-refunds', { prompt: 'refund:A1' });
    const { pending } = await waitForPending(run);
    const callId = pending[0]!.callId;
    expect(await refusal(run.deny(callId, 'no', { answeredBy: 'mallory' }))).toContain("'mallory' may not answer");
    expect(await refusal(run.approve(callId))).toContain('say who answers');
    await run.handle.signal(approveSignal, { callId, answeredBy: 'mallory' });
    await run.handle.signal(denySignal, { callId });
    const refused = await waitFor(async () => {
      const found = ofType(await run.eventsAfter(0), 'call_answer_refused');
      return found.length >= 2 ? found : undefined;
    }, 'the refused signals recorded');
    expect(refused).toEqual([
      expect.objectContaining({ callId, handler: 'approve', answeredBy: 'mallory', reason: expect.stringContaining("'mallory' may not answer") }),
      expect.objectContaining({ callId, handler: 'deny', reason: expect.stringContaining('say who answers') }),
    ]);
    expect((await run.state()).pending).toHaveLength(1);
    expect(refundsIssued).toEqual([]);

    await run.approve(callId, { answeredBy: 'fiona' });
    expect((await run.result()).output).toBe('Results: refunded 40 on A1');
    await maybeRecordHistory(run, 'answer-rules-non-approver-refused');
    expect(ofType(await run.eventsAfter(0), 'permission_decided')).toEqual([expect.objectContaining({ callId, behavior: 'allow', answeredBy: 'fiona' })]);
  });

  test('an approver hands the call to another: recorded, announced; from then on only the delegate may answer', async () => {
    const run = await client.start('guarded-refunds', { prompt: 'refund:D1' });
    const { pending } = await waitForPending(run);
    const callId = pending[0]!.callId;
    expect(await refusal(run.delegate(callId, ['bob'], { answeredBy: 'mallory' }))).toContain("'mallory' may not answer");
    const delegated = await run.delegate(callId, ['bob'], { answeredBy: 'alice', reason: 'bob owns this customer', argumentsDigest: pending[0]!.argumentsDigest });
    expect(delegated).toEqual({ callId, approvers: ['bob'], delegatedBy: 'alice' });
    expect((await run.state()).pending[0]).toMatchObject({ approvers: ['bob'], delegatedBy: 'alice' });
    expect(await refusal(run.approve(callId, { answeredBy: 'alice' }))).toContain('may be answered only by bob');
    expect(refundsIssued).toEqual([]);
    await run.approve(callId, { answeredBy: 'bob' });
    expect((await run.result()).output).toBe('Results: refunded 40 on D1');
    await maybeRecordHistory(run, 'answer-rules-delegated');
    const events = await run.eventsAfter(0);
    expect(ofType(events, 'approval_delegated')).toEqual([expect.objectContaining({ callId, approvers: ['bob'], delegatedBy: 'alice', reason: 'bob owns this customer' })]);
    const notice = await waitFor(async () => postsOf(run.workflowId).find((body) => body.type === 'call.delegated'), 'the delegation notice');
    expect(notice).toMatchObject({ event: 'delegated', callId, approvers: ['bob'], delegatedBy: 'alice' });
  });

  test('a session rule added by a remembered answer changes the rules version: an answer under the old version is refused', async () => {
    const run = await client.start('guarded-refunds', { prompt: 'two:R1' });
    const first = (await waitForPending(run)).pending[0]!;
    await run.approve(first.callId, { answeredBy: 'alice', remember: true, rulesVersion: first.rulesVersion });
    const second = await waitFor(async () => (await run.state()).pending.find((call) => call.tool === 'pay'), 'the pay call');
    expect(second.rulesVersion).not.toBe(first.rulesVersion);
    expect(ofType(await run.eventsAfter(0), 'session_rule_added')).toHaveLength(1);
    // Answered already: the same answer once more is refused for that.
    expect(await refusal(run.approve(first.callId, { answeredBy: 'alice', argumentsDigest: first.argumentsDigest }))).toMatch(/already decided|no tool call/);
    expect(await refusal(run.approve(second.callId, { rulesVersion: first.rulesVersion }))).toContain('other rules');
    // pay has no approvers: anyone answers it, as without settings.
    await run.approve(second.callId, { rulesVersion: second.rulesVersion, argumentsDigest: argumentsDigest({ amount: 5 }) });
    expect((await run.result()).output).toBe('Results: paid 5');
  });

  test("the worker's default approvers hold for an agent that names none", async () => {
    const plain = defineAgent({ name: 'plain-refunds', instructions: 'Refund when asked.', tools: [refundTool], permissions: { ask: ['refund'] } });
    const queue = uniqueTaskQueue('answer-rules-default');
    const defaults = await startTestWorker([plain], queue, model.baseURL, undefined, {}, {
      config: { taskQueue: queue, defaultModel: 'scripted-model', namespace: 'default', approvals: { approvers: ['ops@example.com'] } },
    });
    try {
      const other = await AgentClient.connect({ connection: await testConnection(), taskQueue: queue });
      const run = await other.start('plain-refunds', { prompt: 'refund:W1' });
      const call = (await waitForPending(run)).pending[0]!;
      expect(call.approvers).toEqual(['ops@example.com']);
      expect(await refusal(run.approve(call.callId, { answeredBy: 'alice' }))).toContain('may be answered only by ops@example.com');
      await run.approve(call.callId, { answeredBy: 'ops@example.com' });
      expect((await run.result()).output).toBe('Results: refunded 40 on W1');
    } finally {
      await defaults.stop();
    }
  });

  test('a denied call never runs: not after the tool is allowed by a new worker, a late approval, continue-as-new, or replay', async () => {
    const run = await client.start('guarded-refunds', { prompt: 'denied:N1', continueAsNewAfterEvents: 40 });
    const denied = (await waitForPending(run)).pending[0]!;
    // A new worker whose agent allows refunds outright takes the run over before the denial.
    await worker.stop();
    worker = await startTestWorker([relaxed], taskQueue, model.baseURL, undefined, {}, { notifications: { webhooks: [{ url: hook.url }] } });
    await run.deny(denied.callId, 'not this one', { answeredBy: 'alice', argumentsDigest: denied.argumentsDigest, rulesVersion: denied.rulesVersion });
    // The run looks up six keys, continues as new, and asks to pay.
    const late = await waitFor(async () => (await client.get(run.workflowId).state()).pending.find((call) => call.tool === 'pay'), 'the payment', 60_000);
    const runs: string[] = [];
    for await (const execution of client.client.workflow.list({ query: `WorkflowId = '${run.workflowId}'` })) runs.push(execution.status.name);
    expect(runs).toContain('CONTINUED_AS_NEW');
    // A late approval of the denied call (signal and update) changes nothing.
    const current = client.get(run.workflowId);
    await current.handle.signal(approveSignal, { callId: denied.callId, answeredBy: 'alice' });
    expect(await refusal(current.approve(denied.callId, { answeredBy: 'alice' }))).toMatch(/already|no tool call/);
    await current.deny(late.callId, 'no', { answeredBy: 'alice' });
    const result = await current.result();
    expect(refundsIssued).toEqual([]);
    expect(result.messages.filter((m) => m.role === 'tool' && m.toolCallId === denied.callId)).toEqual([expect.objectContaining({ state: 'denied' })]);
    const events = await current.eventsAfter(0);
    expect(events.filter((e) => e.type === 'tool_call_started' && (e as { tool: string }).tool === 'refund')).toEqual([]);
    expect(ofType(events, 'input_rejected')).toEqual(expect.arrayContaining([expect.objectContaining({ handler: 'approve', callId: denied.callId, reason: expect.stringContaining('already decided') })]));

    // Every run of the chain replays on the relaxed worker's code, and nothing runs.
    for await (const execution of client.client.workflow.list({ query: `WorkflowId = '${run.workflowId}'` })) {
      const history = await client.client.workflow.getHandle(run.workflowId, execution.runId).fetchHistory();
      await Worker.runReplayHistory({ workflowBundle: workflowBundle(), sinks: agentWorkflowSinks() }, history, run.workflowId);
    }
    expect(refundsIssued).toEqual([]);
  }, 120_000);
});
