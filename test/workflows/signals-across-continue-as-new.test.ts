import { temporal } from '@temporalio/proto';
import { z } from 'zod';
import type { AgentClient } from '../../src/client/agent-client';
import type { AgentRun } from '../../src/client/agent-run';
import { approveSignal, setGroupsSignal, submitToolResultSignal } from '../../src/common/definitions';
import type { ToolMessage } from '../../src/common/messages';
import type { AgentRunResult } from '../../src/common/run';
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

/** Call ids of the scripted model are `call_<turn>_<position>`, so answers can be sent before the calls exist. */
const REFUND_CALL = `call_${TICKS}_0`;
const PARCEL_CALL = `call_${TICKS + 2}_0`;

/** With runtime `{ early: true }` the last ticks also answer calls the model has not made yet. */
function sendEarlyAnswers(workflowId: string, n: number): void {
  const handle = signalClient!.client.workflow.getHandle(workflowId);
  const later = (ms: number, send: () => Promise<void>) => signalsSent.push(new Promise((r) => setTimeout(r, ms)).then(send));
  if (n === TICKS - 3) later(8, () => handle.signal(submitToolResultSignal, { callId: PARCEL_CALL, output: 'tracking CAN42' }));
  if (n === TICKS - 1) later(2, () => handle.signal(approveSignal, { callId: REFUND_CALL, remember: 'session' }));
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
    if (ctx.runtime.early === true) sendEarlyAnswers(ctx.workflowId, n);
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

  /** Everything the signals asked for happened, and each signal is in the history of exactly one run. */
  async function expectNothingLost(run: AgentRun, result: AgentRunResult): Promise<void> {
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
    const events = await run.eventsAfter(0);
    expect(events.filter((e) => e.type === 'permission_requested')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'permission_decided')).toEqual([expect.objectContaining({ callId: REFUND_CALL, by: 'user' })]);
    expect(toolMessages(result.messages).map((m) => m.content)).toEqual([
      ...SIGNAL_DELAYS.map((_, n) => `tick ${n}`),
      'refunded 5 on CAN-1',
      'refunded 6 on CAN-2',
      'tracking CAN42',
    ]);

    const runs = await landingReport(env, run.workflowId);
    console.log(
      `continue-as-new chain of ${runs.length} runs; signals per run: ${runs.map((r) => r.signals).join(',')}; ` +
        `rejected continue-as-new completions (a signal arrived while deciding): ${runs.reduce((n, r) => n + r.unhandled, 0)}`,
    );
    expect(runs.filter((r) => r.continued).length).toBeGreaterThanOrEqual(TICKS);
    expect(runs[runs.length - 1].continued).toBe(false);
    expect(runs.reduce((n, r) => n + r.signals, 0)).toBe(TICKS + 2);
  }

  beforeEach(() => {
    refundsIssued.length = 0;
  });

  test('setGroups signals around every boundary, then an approval and a result in later runs: none is lost', async () => {
    // Every iteration ends past the bound, so every iteration ends with continue-as-new.
    const run = await env.client.start('boundary', { prompt: 'go', continueAsNewAfterEvents: 10 });
    const handle = env.client.client.workflow.getHandle(run.workflowId);

    const approval = await waitFor(async () => {
      const state = await run.state().catch(() => undefined);
      return state?.pending.find((p) => p.kind === 'approval');
    }, 'the first refund to wait for approval', 60_000);
    expect(approval.callId).toBe(REFUND_CALL);
    await handle.signal(approveSignal, { callId: approval.callId, remember: 'session' });

    const external = await waitFor(async () => {
      const state = await run.state().catch(() => undefined);
      return state?.pending.find((p) => p.kind === 'external');
    }, 'the parcel to wait for its result', 60_000);
    expect(external.callId).toBe(PARCEL_CALL);
    await handle.signal(submitToolResultSignal, { callId: external.callId, output: 'tracking CAN42' });

    await expectNothingLost(run, await run.result());
  }, 180_000);

  test('an approval and a result sent at a boundary for calls the model makes runs later are kept', async () => {
    // Nobody answers from outside: the ticks send both answers while the run continues as new.
    const run = await env.client.start('boundary', { prompt: 'go', continueAsNewAfterEvents: 10, runtime: { early: true } });
    await expectNothingLost(run, await run.result());
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
