import { temporal } from '@temporalio/proto';
import { z } from 'zod';
import type { AgentClient } from '../../src/client/agent-client';
import { approveSignal, setGroupsSignal, submitToolResultSignal } from '../../src/common/definitions';
import type { ToolMessage } from '../../src/common/messages';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { refundsIssued, refundTool, shipTool } from '../fixtures/approval-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { waitFor } from '../helpers/wait-for';

/**
 * How long after its tool call returns each `setGroups` signal is sent, in ms: -1 means before
 * the result is reported. The spread lands signals in the workflow task that decides to continue
 * as new, in the one before it, and in the next run.
 */
const SIGNAL_DELAYS = [-1, 0, 1, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 150, 250];
const TICKS = SIGNAL_DELAYS.length;
const group = (n: number) => `g${n}`;
const UNHANDLED_COMMAND = temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND;

let signalClient: AgentClient | undefined;
const signalsSent: Promise<void>[] = [];

function activateGroupOf(workflowId: string, n: number): Promise<void> {
  return signalClient!.client.workflow.getHandle(workflowId).signal(setGroupsSignal, { activate: [group(n)] });
}

const tickTool = defineTool({
  name: 'tick',
  description: 'One step of work.',
  input: z.object({ n: z.number().int() }),
  readOnly: true,
  execute: async ({ n }, ctx) => {
    const delay = SIGNAL_DELAYS[n];
    if (delay < 0) await activateGroupOf(ctx.workflowId, n);
    else signalsSent.push(new Promise((resolve) => setTimeout(resolve, delay)).then(() => activateGroupOf(ctx.workflowId, n)));
    return `tick ${n}`;
  },
});

const groupTools = SIGNAL_DELAYS.map((_, n) =>
  defineTool({ name: `${group(n)}_tool`, description: `Tool of ${group(n)}.`, input: z.object({}), readOnly: true, execute: () => group(n) }),
);

const boundaryAgent = defineAgent({
  name: 'boundary',
  instructions: 'Tick, refund, ship.',
  tools: [tickTool, refundTool, shipTool, ...groupTools],
  groups: SIGNAL_DELAYS.map((_, n) => ({ name: group(n), description: `group ${n}`, tools: [`${group(n)}_tool`], active: false })),
  permissions: { ask: ['refund'] },
  maxIters: 100,
});

function toolMessages(messages: { role: string }[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => m.role === 'tool');
}

describe('signals around continue-as-new', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({
      agents: [boundaryAgent],
      script: (request, info) => {
        const t = info.turnIndex;
        if (t < TICKS) return { toolCalls: [{ name: 'tick', arguments: { n: t } }] };
        if (t === TICKS) return { toolCalls: [{ name: 'refund', arguments: { order_id: 'CAN-1', amount: 5 } }] };
        if (t === TICKS + 1) return { toolCalls: [{ name: 'refund', arguments: { order_id: 'CAN-2', amount: 6 } }] };
        if (t === TICKS + 2) return { toolCalls: [{ name: 'ship_parcel', arguments: { address: 'Boundary St' } }] };
        const offered = (request.tools ?? []).map((tool) => tool.function.name).filter((name) => /^g\d+_tool$/.test(name));
        return `offered ${offered.length} group tools; last: ${info.toolResults[0]?.content}`;
      },
    });
    signalClient = env.client;
  });
  afterAll(async () => {
    await Promise.allSettled(signalsSent);
    await env?.stop();
  });

  test('setGroups signals, an approval and a submitted result around every boundary: none is lost', async () => {
    refundsIssued.length = 0;
    // Every iteration ends past the bound, so every iteration ends with continue-as-new.
    const run = await env.client.start('boundary', { prompt: 'go', continueAsNewAfterEvents: 10 });
    const handle = env.client.client.workflow.getHandle(run.workflowId);

    const approval = await waitFor(async () => {
      const state = await run.state().catch(() => undefined);
      return state?.pending.find((p) => p.kind === 'approval');
    }, 'the first refund to wait for approval', 60_000);
    await handle.signal(approveSignal, { callId: approval.callId, remember: 'session' });

    const external = await waitFor(async () => {
      const state = await run.state().catch(() => undefined);
      return state?.pending.find((p) => p.kind === 'external');
    }, 'the parcel to wait for its result', 60_000);
    await handle.signal(submitToolResultSignal, { callId: external.callId, output: 'tracking CAN42' });

    const result = await run.result();
    await Promise.all(signalsSent);
    expect(result.status).toBe('completed');
    expect(result.output).toBe(`offered ${TICKS} group tools; last: tracking CAN42`);
    const finalState = await run.state();
    expect([...finalState.activeGroups].sort()).toEqual(SIGNAL_DELAYS.map((_, n) => group(n)).sort());

    // The approval remembered in one run allowed the same tool in the next run without asking.
    expect(refundsIssued).toEqual([
      { orderId: 'CAN-1', amount: 5 },
      { orderId: 'CAN-2', amount: 6 },
    ]);
    expect(finalState.sessionRules).toEqual(['refund']);
    const asked = (await run.eventsAfter(0)).filter((e) => e.type === 'permission_requested');
    expect(asked).toHaveLength(1);
    expect(toolMessages(result.messages).map((m) => m.content)).toEqual([
      ...SIGNAL_DELAYS.map((_, n) => `tick ${n}`),
      'refunded 5 on CAN-1',
      'refunded 6 on CAN-2',
      'tracking CAN42',
    ]);

    const runs = await landingReport(env, run.workflowId);
    console.log(`continue-as-new chain of ${runs.length} runs; setGroups signals per run: ${runs.map((r) => r.signals).join(',')}; ` +
      `rejected continue-as-new completions (a signal arrived while deciding): ${runs.reduce((n, r) => n + r.unhandled, 0)}`);
    expect(runs.filter((r) => r.continued).length).toBeGreaterThanOrEqual(TICKS);
    expect(runs[runs.length - 1].continued).toBe(false);
    expect(runs.reduce((n, r) => n + r.signals, 0)).toBe(TICKS + 2);
  }, 180_000);
});

/**
 * Per run of the chain, followed through the histories (not visibility, which may lag): whether
 * it continued as new, how many signals it received, how often its closing command was refused.
 */
async function landingReport(env: AgentTestEnv, workflowId: string) {
  const workflows = env.client.client.workflow;
  let runId = (await workflows.getHandle(workflowId).describe()).raw.workflowExecutionInfo?.firstRunId ?? undefined;
  const report: { continued: boolean; signals: number; unhandled: number }[] = [];
  while (runId) {
    const events = (await workflows.getHandle(workflowId, runId).fetchHistory()).events ?? [];
    const next = events[events.length - 1]?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
    report.push({
      continued: Boolean(next),
      signals: events.filter((e) => e.workflowExecutionSignaledEventAttributes).length,
      unhandled: events.filter((e) => e.workflowTaskFailedEventAttributes?.cause === UNHANDLED_COMMAND).length,
    });
    runId = next ?? undefined;
  }
  return report;
}
