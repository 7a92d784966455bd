import { join } from 'node:path';
import type { PreparedCall } from '../../src/common/contracts/tool-calls';
import type { AgentEvent } from '../../src/common/events';
import type { AgentRun } from '../../src/client/agent-run';
import { AgentClient } from '../../src/client/agent-client';
import { waitingCallsOf } from '../../src/client/waiting-calls';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { defineAgent } from '../../src/toolkit/define-agent';
import { formatEvent } from '../../src/text/format-event';
import { refundsIssued, refundTool } from '../fixtures/approval-tools';
import { maybeRecordHistory } from '../helpers/record-history';
import { activityResults } from '../helpers/activity-history';
import { startTestWorker } from '../helpers/agent-test-env';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { toolMessages } from '../helpers/tool-messages';
import { waitForPending } from '../helpers/wait-for';

/**
 * Approval policies on real runs: only what the rules ask about reaches the policy, which allows
 * (the tool runs), denies (it does not) or asks a person with its reason on the waiting call; a
 * policy that cannot be loaded or evaluated asks a person, never allows.
 */

const FIXTURES = join(__dirname, '..', 'fixtures', 'policies');
const cedar = { kind: 'cedar' as const, name: 'refunds', version: '3', file: join(FIXTURES, 'refunds.cedar') };
const rego = { kind: 'rego' as const, name: 'refunds-rego', version: '7', file: join(FIXTURES, 'refunds.wasm'), entrypoint: 'durable_agent/approval/decision' };

function shop(name: string, approvalPolicy?: Parameters<typeof defineAgent>[0]['approvalPolicy']) {
  return defineAgent({ name, instructions: 'Refund when asked.', tools: [refundTool], permissions: { ask: ['refund'] }, ...(approvalPolicy !== undefined ? { approvalPolicy } : {}) });
}

const agents = [
  shop('cedar-shop', cedar),
  shop('rego-shop', { tools: { refund: rego } }),
  shop('broken-cedar-shop', { kind: 'cedar', name: 'broken-cedar', version: '1', file: join(FIXTURES, 'syntax-error.cedar') }),
  shop('broken-rego-shop', { kind: 'rego', name: 'broken-rego', version: '1', file: join(FIXTURES, 'broken.wasm') }),
  shop('judge-shop', { kind: 'judge', name: 'refund-judge', version: '2', model: 'judge-model', rubric: 'Refunds to first-time customers need a person.' }),
  shop('garbage-judge-shop', { kind: 'judge', name: 'garbage-judge', version: '1', model: 'garbage-judge-model', rubric: 'Anything.' }),
  shop('failing-judge-shop', { kind: 'judge', name: 'failing-judge', version: '1', model: 'failing-judge-model', rubric: 'Anything.' }),
  // No policy of its own: the worker's default (Cedar) decides; `false` turns it off.
  shop('default-shop'),
  shop('no-policy-shop', false),
];

const judgeReplies = {
  'judge-model': () => '```json\n{"outcome": "ask", "reason": "first refund of this customer: a person should check it"}\n```',
  'garbage-judge-model': () => 'Sure, that looks fine to me!',
  'failing-judge-model': () => ({ faults: [{ status: 400, times: 100 }] }),
};

describe('approval policies decide what the rules ask about', () => {
  let model: ScriptedModelServer;
  let client: AgentClient;
  let worker: Awaited<ReturnType<typeof startTestWorker>>;
  const logged: string[] = [];

  beforeAll(async () => {
    model = await startScriptedModelServer({ byModel: judgeReplies });
    const taskQueue = uniqueTaskQueue('policy');
    worker = await startTestWorker(agents, taskQueue, model.baseURL, undefined, {}, {
      config: { taskQueue, defaultModel: 'scripted-model', namespace: 'default', approvalPolicy: cedar },
      log: (message) => logged.push(message),
    });
    client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
  });
  afterAll(async () => {
    await worker?.stop();
    await model?.close();
  });
  beforeEach(() => {
    refundsIssued.length = 0;
  });

  function refund(amount: number) {
    model.setScript((_req, info) => (info.turnIndex === 0 ? { toolCalls: [{ name: 'refund', arguments: { order_id: 'A1', amount } }] } : `done: ${info.toolResults.map((r) => r.content).join(' | ')}`));
  }

  /** The decision the check recorded in the run's history (the prepareToolCalls local activity's result). */
  async function recordedDecision(run: AgentRun) {
    const history = await run.handle.fetchHistory();
    const prepared = activityResults<PreparedCall[]>(history, 'prepareToolCalls').flat();
    const call = prepared.find((p) => p.tool === 'refund');
    return call && 'decision' in call ? call.decision : undefined;
  }

  async function events(run: AgentRun): Promise<AgentEvent[]> {
    return run.eventsAfter(0);
  }

  test('the worker logs each policy it cannot load, once, and still starts', () => {
    expect(logged.filter((line) => line.includes('broken-cedar-v1'))).toHaveLength(1);
    expect(logged.find((line) => line.includes('broken-cedar-v1'))).toMatch(/could not be loaded: the Cedar policy set does not parse.*ask a person/);
    expect(logged.filter((line) => line.includes('broken-rego-v1'))).toHaveLength(1);
  });

  describe('Cedar', () => {
    test('a permit allows: the tool runs without a person, the decision names the policy', async () => {
      refund(50);
      const run = await client.start('cedar-shop', { prompt: 'refund', userId: 'alice' });
      const result = await run.result();
      expect(refundsIssued).toEqual([{ orderId: 'A1', amount: 50 }]);
      expect(result.output).toBe('done: refunded 50 on A1');
      expect((await events(run)).some((e) => e.type === 'permission_requested')).toBe(false);
      expect(await recordedDecision(run)).toEqual({
        behavior: 'allow',
        reason: 'allowed by refunds-v3: amount ≤ 100',
        policy: { name: 'refunds', version: '3', outcome: 'allow', reason: 'amount ≤ 100' },
      });
      const decided = (await events(run)).find((e) => e.type === 'permission_decided');
      expect(decided).toMatchObject({ behavior: 'allow', by: 'rules', policy: { name: 'refunds', version: '3', outcome: 'allow', reason: 'amount ≤ 100' } });
      expect(formatEvent(decided!, run.workflowId)).toContain('allowed by refunds-v3: amount ≤ 100');
      await maybeRecordHistory(run, 'policy-cedar-allowed');
    });

    test('a forbid denies: the tool does not run, the model and the event say which policy and why', async () => {
      refund(5000);
      const run = await client.start('cedar-shop', { prompt: 'refund', userId: 'alice' });
      const result = await run.result();
      expect(refundsIssued).toEqual([]);
      expect(toolMessages(result.messages)[0]).toMatchObject({ state: 'denied', content: 'Permission denied: denied by refunds-v3: amount > 1000 is never refunded by an agent' });
      const decided = (await events(run)).find((e) => e.type === 'permission_decided');
      expect(decided).toMatchObject({ behavior: 'deny', by: 'rules', reason: 'denied by refunds-v3: amount > 1000 is never refunded by an agent' });
      expect((await recordedDecision(run))?.policy).toEqual({ name: 'refunds', version: '3', outcome: 'deny', reason: 'amount > 1000 is never refunded by an agent' });
    });

    test('an @ask forbid asks a person, its reason on the waiting call; the approval runs the tool', async () => {
      refund(500);
      const run = await client.start('cedar-shop', { prompt: 'refund', userId: 'alice' });
      const { pending } = await waitForPending(run, 1);
      expect(pending[0]!.decision).toMatchObject({
        behavior: 'ask',
        reason: 'refunds-v3 asks a person: amount between 100 and 1000: a person decides',
        policy: { name: 'refunds', version: '3', outcome: 'ask', reason: 'amount between 100 and 1000: a person decides' },
      });
      const requested = (await events(run)).find((e) => e.type === 'permission_requested')!;
      expect(formatEvent(requested, run.workflowId)).toContain('needs approval: refunds-v3 asks a person: amount between 100 and 1000');
      expect(refundsIssued).toEqual([]);
      await run.approve(pending[0]!.callId);
      await run.result();
      expect(refundsIssued).toEqual([{ orderId: 'A1', amount: 500 }]);
    });

    test('a run without a user: no permit holds (principal is Anonymous), so a person is asked', async () => {
      refund(50);
      const run = await client.start('cedar-shop', { prompt: 'refund' });
      const { pending } = await waitForPending(run, 1);
      expect(pending[0]!.decision?.policy).toEqual({ name: 'refunds', version: '3', outcome: 'ask', reason: 'no policy decided this call' });
      await run.deny(pending[0]!.callId, 'no');
      await run.result();
      expect(refundsIssued).toEqual([]);
    });
  });

  describe('Rego (compiled to WebAssembly)', () => {
    test('allows: the tool runs', async () => {
      refund(60);
      const run = await client.start('rego-shop', { prompt: 'refund', userId: 'bob' });
      await run.result();
      expect(refundsIssued).toEqual([{ orderId: 'A1', amount: 60 }]);
      expect(await recordedDecision(run)).toMatchObject({ behavior: 'allow', reason: 'allowed by refunds-rego-v7: amount ≤ 100', policy: { name: 'refunds-rego', version: '7', outcome: 'allow' } });
    });

    test('denies: the tool does not run', async () => {
      refund(2000);
      const run = await client.start('rego-shop', { prompt: 'refund', userId: 'bob' });
      const result = await run.result();
      expect(refundsIssued).toEqual([]);
      expect(toolMessages(result.messages)[0]).toMatchObject({ state: 'denied', content: 'Permission denied: denied by refunds-rego-v7: amount > 1000 is never refunded by an agent' });
      expect((await recordedDecision(run))?.policy).toMatchObject({ name: 'refunds-rego', version: '7', outcome: 'deny' });
    });

    test('asks a person with its reason', async () => {
      refund(300);
      const run = await client.start('rego-shop', { prompt: 'refund', userId: 'bob' });
      const { pending } = await waitForPending(run, 1);
      expect(pending[0]!.decision).toMatchObject({ reason: 'refunds-rego-v7 asks a person: amount between 100 and 1000: a person decides', policy: { outcome: 'ask' } });
      expect(refundsIssued).toEqual([]);
      await run.deny(pending[0]!.callId, 'not today');
      await run.result();
      expect(refundsIssued).toEqual([]);
    });
  });

  describe('a policy that cannot decide asks a person, never allows', () => {
    test.each([
      ['broken-cedar-shop', 'broken-cedar-v1', /could not be loaded: the Cedar policy set does not parse/],
      ['broken-rego-shop', 'broken-rego-v1', /could not be loaded: .*magic word/],
      ['garbage-judge-shop', 'garbage-judge-v1', /the judge's answer is not JSON: Sure, that looks fine to me!/],
      ['failing-judge-shop', 'failing-judge-v1', /400/],
    ])('%s: a small refund waits for a person, the failure on the waiting call', async (agent, label, problem) => {
      refund(10);
      const run = await client.start(agent, { prompt: 'refund', userId: 'alice' });
      const { pending } = await waitForPending(run, 1);
      const decision = pending[0]!.decision!;
      expect(decision.behavior).toBe('ask');
      expect(decision.reason.startsWith(`${label} could not decide (`)).toBe(true);
      expect(decision.policy).toMatchObject({ outcome: 'ask', failed: true });
      expect(decision.policy!.reason).toMatch(problem);
      expect(refundsIssued).toEqual([]);
      await run.deny(pending[0]!.callId, 'checked by hand');
      await run.result();
      expect(refundsIssued).toEqual([]);
    });
  });

  test('a judge asks a person: its reason is on the waiting call, in the CLI line, and the judge saw the call', async () => {
    refund(20);
    const run = await client.start('judge-shop', { prompt: 'refund', userId: 'carol' });
    const { pending } = await waitForPending(run, 1);
    expect(pending[0]!.decision).toMatchObject({
      behavior: 'ask',
      reason: 'refund-judge-v2 asks a person: first refund of this customer: a person should check it',
      policy: { name: 'refund-judge', version: '2', outcome: 'ask', reason: 'first refund of this customer: a person should check it' },
    });
    // What `durable-agent pending` and the inbox list show as the call's "why".
    expect(waitingCallsOf(run.workflowId, await run.state())[0]).toMatchObject({ tool: 'refund', reason: 'refund-judge-v2 asks a person: first refund of this customer: a person should check it' });
    const asked = model.requests.filter((r) => r.model === 'judge-model').at(-1)!;
    const shown = JSON.parse(String(asked.body.messages[1]!.content));
    expect(shown).toMatchObject({ user: { id: 'carol' }, tool: 'refund', arguments: { order_id: 'A1', amount: 20 }, context: { agent: 'judge-shop', workflowId: run.workflowId } });
    expect(String(asked.body.messages[0]!.content)).toContain('Refunds to first-time customers need a person.');
    await run.approve(pending[0]!.callId);
    await run.result();
    expect(refundsIssued).toEqual([{ orderId: 'A1', amount: 20 }]);
  });

  test("the worker's default policy decides for an agent without one; `false` leaves it to a person", async () => {
    refund(40);
    const run = await client.start('default-shop', { prompt: 'refund', userId: 'alice' });
    await run.result();
    expect(refundsIssued).toEqual([{ orderId: 'A1', amount: 40 }]);
    expect((await recordedDecision(run))?.policy).toMatchObject({ name: 'refunds', outcome: 'allow' });

    refundsIssued.length = 0;
    const manual = await client.start('no-policy-shop', { prompt: 'refund', userId: 'alice' });
    const { pending } = await waitForPending(manual, 1);
    expect(pending[0]!.decision?.policy).toBeUndefined();
    await manual.deny(pending[0]!.callId, 'no');
    await manual.result();
    expect(refundsIssued).toEqual([]);
  });
});
