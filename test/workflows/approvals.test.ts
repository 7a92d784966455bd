import type { AgentEvent } from '../../src/common/events';
import { approveSignal, denySignal } from '../../src/common/definitions';
import { defineAgent } from '../../src/toolkit/define-agent';
import { lookupTool, payTool, refundsIssued, refundTool, shipTool } from '../fixtures/approval-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { maybeRecordHistory } from '../helpers/record-history';
import { toolMessages as tools } from '../helpers/tool-messages';
import { waitForPending } from '../helpers/wait-for';

const shop = defineAgent({
  name: 'shop',
  instructions: 'Refund when asked.',
  tools: [refundTool, lookupTool, shipTool, payTool],
  permissions: { ask: ['refund'] },
});

const answerFromResults = (_req: unknown, info: { toolResults: { content: string }[] }) =>
  `Results: ${info.toolResults.map((r) => r.content).join(' | ')}`;

describe('permissions and human-in-the-loop', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [shop] });
  });
  afterAll(async () => env?.stop());
  beforeEach(() => {
    refundsIssued.length = 0;
  });

  function script(calls: { name: string; arguments: Record<string, unknown> }[], after: typeof answerFromResults = answerFromResults) {
    env.model.setScript((req, info) => (info.turnIndex === 0 ? { toolCalls: calls } : after(req, info)));
  }

  test('ASK then approve: the status and search attribute say so, then the tool runs', async () => {
    script([{ name: 'refund', arguments: { order_id: 'A1', amount: 30 } }]);
    const run = await env.client.start('shop', { prompt: 'refund A1' });
    const state = await waitForPending(run, 1);
    expect(state.status).toBe('awaiting_approval');
    expect(state.pending[0]).toMatchObject({ tool: 'refund', kind: 'approval', input: { order_id: 'A1', amount: 30 } });
    expect(state.pending[0].decision?.suggestedRule).toBe('refund');
    const description = await run.handle.describe();
    expect(description.typedSearchAttributes.get({ name: 'AgentStatus', type: 'KEYWORD' } as never)).toBe('awaiting_approval');
    expect(refundsIssued).toHaveLength(0);

    const decision = await run.approve(state.pending[0].callId);
    expect(decision).toMatchObject({ callId: state.pending[0].callId, approved: true });
    const result = await run.result();
    expect(result.output).toBe('Results: refunded 30 on A1');
    expect(refundsIssued).toEqual([{ orderId: 'A1', amount: 30 }]);
    const types = (await run.eventsAfter(0)).map((e: AgentEvent) => e.type);
    expect(types).toEqual(expect.arrayContaining(['permission_requested', 'permission_decided', 'tool_call_finished']));
    await maybeRecordHistory(run, 'approval-approved');
  });

  test('ASK then deny: the model sees the denial and answers accordingly', async () => {
    script([{ name: 'refund', arguments: { order_id: 'A2', amount: 30 } }]);
    const run = await env.client.start('shop', { prompt: 'refund A2' });
    const state = await waitForPending(run, 1);
    await run.deny(state.pending[0].callId, 'order is older than 30 days');
    const result = await run.result();
    expect(tools(result.messages)[0]).toMatchObject({
      content: 'Permission denied by user: order is older than 30 days',
      state: 'denied',
    });
    expect(result.output).toBe('Results: Permission denied by user: order is older than 30 days');
    expect(refundsIssued).toHaveLength(0);
    await maybeRecordHistory(run, 'approval-denied');
  });

  test('partial decisions across two ASK calls; the allowed call of the batch waits for them', async () => {
    script([
      { name: 'refund', arguments: { order_id: 'B1', amount: 10 } },
      { name: 'lookup', arguments: { key: 'k' } },
      { name: 'refund', arguments: { order_id: 'B2', amount: 20 } },
    ]);
    const run = await env.client.start('shop', { prompt: 'two refunds' });
    const state = await waitForPending(run, 2);
    const [first, second] = state.pending;
    await run.approve(first.callId);
    // The lookup needs no approval, but it waits for the whole batch.
    expect((await run.state()).messages.filter((m) => m.role === 'tool')).toHaveLength(0);
    await run.deny(second.callId, 'too much');
    const result = await run.result();
    expect(tools(result.messages).map((t) => t.content)).toEqual([
      'refunded 10 on B1',
      'value of k',
      'Permission denied by user: too much',
    ]);
  });

  test('edited input is validated again: invalid edits are rejected, valid ones run', async () => {
    script([{ name: 'refund', arguments: { order_id: 'C1', amount: 500 } }]);
    const run = await env.client.start('shop', { prompt: 'refund C1' });
    const { pending } = await waitForPending(run, 1);
    const callId = pending[0].callId;
    await expect(run.approve(callId, { input: { order_id: 'C1', amount: -5 } })).rejects.toThrow(/Edited input rejected/);
    expect((await run.state()).pending).toHaveLength(1);
    await run.approve(callId, { input: { order_id: 'C1', amount: 50 } });
    const result = await run.result();
    expect(tools(result.messages)[0].content).toBe('refunded 50 on C1');
    expect(refundsIssued).toEqual([{ orderId: 'C1', amount: 50 }]);
  });

  test('remember for the session: the second call of that tool needs no approval', async () => {
    env.model.setScript((_req, info) => {
      if (info.turnIndex === 0) return { toolCalls: [{ name: 'refund', arguments: { order_id: 'D1', amount: 1 } }] };
      if (info.turnIndex === 1) return { toolCalls: [{ name: 'refund', arguments: { order_id: 'D2', amount: 2 } }] };
      return 'both refunded';
    });
    const run = await env.client.start('shop', { prompt: 'refunds' });
    const { pending } = await waitForPending(run, 1);
    await run.approve(pending[0].callId, { remember: true });
    const result = await run.result();
    expect(result.output).toBe('both refunded');
    expect(refundsIssued.map((r) => r.orderId)).toEqual(['D1', 'D2']);
    const asked = (await run.eventsAfter(0)).filter((e) => e.type === 'permission_requested');
    expect(asked).toHaveLength(1);
    expect((await run.state()).sessionRules).toEqual(['refund']);
  });

  test('duplicate and unknown-id signals are ignored; the update rejects them with a clear error', async () => {
    script([{ name: 'refund', arguments: { order_id: 'E1', amount: 5 } }]);
    const run = await env.client.start('shop', { prompt: 'refund E1' });
    const { pending } = await waitForPending(run, 1);
    const callId = pending[0].callId;
    await run.handle.signal(approveSignal, { callId: 'no-such-call' });
    await expect(run.approve('no-such-call')).rejects.toThrow(/no tool call 'no-such-call' is waiting for approval/);
    expect((await run.state()).pending).toHaveLength(1);
    await run.handle.signal(approveSignal, { callId });
    await run.handle.signal(denySignal, { callId, reason: 'too late' });
    await run.handle.signal(approveSignal, { callId });
    const result = await run.result();
    expect(tools(result.messages)[0].content).toBe('refunded 5 on E1');
    expect(refundsIssued).toHaveLength(1);
    await expect(run.deny(callId)).rejects.toThrow();
  });

  test('a decision that arrives before the workflow starts waiting is kept', async () => {
    let modelCalled: () => void = () => undefined;
    const called = new Promise<void>((resolve) => (modelCalled = resolve));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    env.model.setScript(async (_req, info) => {
      if (info.turnIndex > 0) return answerFromResults(_req, info);
      modelCalled();
      await gate;
      return { toolCalls: [{ id: 'call_early', name: 'refund', arguments: { order_id: 'G1', amount: 9 } }] };
    });
    const run = await env.client.start('shop', { prompt: 'early decision' });
    await called;
    // The model has not answered yet: the run has never seen this call when the approval arrives.
    await run.handle.signal(approveSignal, { callId: 'call_early' });
    // The update path stays strict: it tells the caller at once that no such call waits.
    await expect(run.approve('call_early')).rejects.toThrow(/no tool call 'call_early' is waiting for approval/);
    release();
    const result = await run.result();
    expect(result.output).toBe('Results: refunded 9 on G1');
    const events = await run.eventsAfter(0);
    expect(events.filter((e) => e.type === 'permission_requested')).toHaveLength(1);
    expect(events.find((e) => e.type === 'permission_decided')).toMatchObject({ behavior: 'allow', by: 'user' });
  });

  test('approveAll approves every waiting call', async () => {
    script([
      { name: 'refund', arguments: { order_id: 'F1', amount: 1 } },
      { name: 'refund', arguments: { order_id: 'F2', amount: 2 } },
    ]);
    const run = await env.client.start('shop', { prompt: 'refunds' });
    await waitForPending(run, 2);
    await run.approveAll();
    await run.result();
    expect(refundsIssued.map((r) => r.orderId)).toEqual(['F1', 'F2']);
  });

  test('an external tool waits for its submitted result', async () => {
    script([{ name: 'ship_parcel', arguments: { address: 'Hangzhou' } }]);
    const run = await env.client.start('shop', { prompt: 'ship it' });
    const state = await waitForPending(run, 1);
    expect(state.status).toBe('awaiting_external');
    expect(state.pending[0]).toMatchObject({ kind: 'external', tool: 'ship_parcel', input: { address: 'Hangzhou' } });
    await expect(run.submit('wrong-id', 'x')).rejects.toThrow(/no tool call 'wrong-id' is waiting for an external result/);
    const submitted = await run.submit(state.pending[0].callId, 'tracking SF42');
    expect(submitted.output).toBe('tracking SF42');
    const result = await run.result();
    expect(result.output).toBe('Results: tracking SF42');
    await maybeRecordHistory(run, 'external-submitted');
  });

  test('a tool that suspends itself waits for the result from outside', async () => {
    script([{ name: 'pay', arguments: { amount: 250 } }]);
    const run = await env.client.start('shop', { prompt: 'pay 250' });
    const state = await waitForPending(run, 1);
    expect(state.pending[0]).toMatchObject({ kind: 'external', tool: 'pay' });
    const events = await run.eventsAfter(0);
    expect(events.find((e) => e.type === 'external_requested')).toMatchObject({ reason: 'amount 250 needs the finance system' });
    await run.submit(state.pending[0].callId, 'payment failed: card expired', { isError: true });
    const result = await run.result();
    expect(tools(result.messages)[0]).toMatchObject({ content: 'payment failed: card expired', state: 'error' });
  });
});
