import { emptyUsage } from '../../src/common/messages';
import type { AgentRunResult, AgentWorkflowInput, CarriedState } from '../../src/common/run';
import { AgentRegistry } from '../../src/toolkit/agent-registry';
import { defineAgent } from '../../src/toolkit/define-agent';
import { migrateCarriedAnswers } from '../../src/workflows/calls';
import { initialMessages } from '../../src/workflows/state/run-state';
import { refundsIssued, refundTool, shipTool } from '../fixtures/approval-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { maybeRecordHistory } from '../helpers/record-history';
import type { AgentRun } from '../../src/client/agent-run';

const refunder = defineAgent({ name: 'carried-refunder', instructions: 'Refund and ship.', tools: [refundTool, shipTool], permissions: { ask: ['refund'] } });

/** What a run of 0.4.0 carried over continue-as-new: early answers as two lists, no call records. */
function carriedBy040(): CarriedState {
  const descriptor = new AgentRegistry([refunder], { defaultModel: 'scripted-model' }).get(refunder.name)!.descriptor;
  return {
    descriptor,
    messages: initialMessages(descriptor, 'refund ORD-7 and ship it'),
    usage: emptyUsage(),
    iterations: 0,
    activeGroups: [],
    sessionRules: [],
    events: [],
    nextEventSeq: 1,
    approvals: [{ callId: 'call_0_0', approved: true, decidedAt: '2026-11-01T10:00:00.000Z', reason: 'fine' }],
    submissions: [{ callId: 'call_0_1', output: 'tracking CAN-7', submittedAt: '2026-11-01T10:00:01.000Z' }],
    continuedRuns: 1,
  };
}

describe('state carried over continue-as-new by older runs is read through a migration', () => {
  test('two lists of early answers become one unseen record per call', () => {
    const records = migrateCarriedAnswers({
      approvals: [{ callId: 'a', approved: false, reason: 'no', decidedAt: 't1' }],
      submissions: [
        { callId: 'a', output: 'x', submittedAt: 't2' },
        { callId: 'b', output: 'y', submittedAt: 't3' },
      ],
    });
    expect(records).toEqual([
      { callId: 'a', tool: '', phase: { name: 'unseen' }, answer: { callId: 'a', approved: false, reason: 'no', decidedAt: 't1' }, submission: { callId: 'a', output: 'x', submittedAt: 't2' } },
      { callId: 'b', tool: '', phase: { name: 'unseen' }, submission: { callId: 'b', output: 'y', submittedAt: 't3' } },
    ]);
    expect(migrateCarriedAnswers(undefined)).toEqual([]);
    const current = [{ callId: 'c', tool: '', phase: { name: 'unseen' as const } }];
    expect(migrateCarriedAnswers({ calls: current, approvals: [{ callId: 'ignored', approved: true, decidedAt: 't' }] })).toBe(current);
  });

  describe('on a real server', () => {
    let env: AgentTestEnv;
    beforeAll(async () => {
      env = await startAgentTestEnv({
        agents: [refunder],
        script: [{ toolCalls: [{ name: 'refund', arguments: { order_id: 'ORD-7', amount: 7 } }, { name: 'ship_parcel', arguments: { address: 'Quay 7' } }] }, 'Refunded and shipped.'],
      });
    });
    afterAll(() => env?.stop());

    test("a run continued as new by 0.4.0 with an approval and a result given early uses both: it never waits", async () => {
      const input: AgentWorkflowInput = { agent: refunder.name, prompt: 'refund ORD-7 and ship it', carried: carriedBy040() };
      const handle = await env.client.client.workflow.start('agentWorkflow', { taskQueue: env.taskQueue, workflowId: `carried-040-${Date.now()}`, args: [input] });
      let timer: NodeJS.Timeout | undefined;
      const result = (await Promise.race([handle.result(), new Promise((resolve) => (timer = setTimeout(() => resolve('still waiting'), 20_000)))])) as AgentRunResult | string;
      // A timer left running keeps jest's worker alive for its 20 s after the suite ends.
      clearTimeout(timer);
      expect(result).toMatchObject({ status: 'completed', output: 'Refunded and shipped.' });
      const tools = (result as AgentRunResult).messages.filter((m) => m.role === 'tool');
      expect(tools.map((m) => m.content)).toEqual(['refunded 7 on ORD-7', 'tracking CAN-7']);
      expect(refundsIssued).toContainEqual({ orderId: 'ORD-7', amount: 7 });
      await maybeRecordHistory({ handle } as unknown as AgentRun, 'carried-040-answers-migrated');
    });
  });
});
