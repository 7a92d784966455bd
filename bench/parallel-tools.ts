import { loadavg } from 'node:os';
import type { Client } from '@temporalio/client';
import type { AgentRunResult } from '../src/common/run';
import { SLOW_TOOL_MS } from './bench-agents';
import { activitySpans } from './history-activities';
import { loadAverage } from './load-average';
import { median } from './stats';
import type { SummaryRow } from './summary';
import { agentInput } from './agent-start';

const TARGET_MS = 1100;

interface BatchTimes {
  /** First tool started → last tool closed. */
  batchMs: number;
  /** First tool scheduled → last tool closed: the wait as the workflow sees it. */
  scheduledMs: number;
  /** This iteration's model call scheduled → the next model call scheduled. */
  iterationMs: number;
}

async function measureRun(client: Client, taskQueue: string, workflowId: string): Promise<BatchTimes> {
  const result: AgentRunResult = await client.workflow.execute('agentWorkflow', { taskQueue, workflowId, args: [agentInput('parallel', 'read')] });
  if (result.status !== 'completed') throw new Error(`unexpected parallel result: ${result.status}`);
  const spans = activitySpans(await client.workflow.getHandle(workflowId).fetchHistory());
  const tools = spans.filter((span) => span.type === 'executeTool');
  const models = spans.filter((span) => span.type === 'callModel');
  if (tools.length !== 3 || models.length !== 2 || tools.some((t) => t.startedAt === undefined || t.closedAt === undefined)) {
    throw new Error(`${workflowId}: expected 3 finished tools and 2 model calls in history`);
  }
  const lastClosed = Math.max(...tools.map((t) => t.closedAt!));
  return {
    batchMs: lastClosed - Math.min(...tools.map((t) => t.startedAt!)),
    scheduledMs: lastClosed - Math.min(...tools.map((t) => t.scheduledAt)),
    iterationMs: models[1].scheduledAt - models[0].scheduledAt,
  };
}

/** P5: one reply with three 1 s read-only tools; the tool batch should take about one tool's time. */
export async function measureParallelTools(options: { client: Client; taskQueue: string; runs: number }): Promise<SummaryRow[]> {
  const times: BatchTimes[] = [];
  for (let i = 0; i < options.runs; i++) times.push(await measureRun(options.client, options.taskQueue, `parallel-${i}`));
  const batch = median(times.map((t) => t.batchMs));
  console.log(`\nP5 three parallel ${SLOW_TOOL_MS} ms read-only tools in one reply, ${options.runs} runs (times from the history's event times):`);
  times.forEach((t, i) =>
    console.log(`  run ${i + 1}: tool batch ${t.batchMs} ms (first start → last end), ${t.scheduledMs} ms from first scheduled, whole iteration ${t.iterationMs} ms`),
  );
  console.log(`tool batch median: ${batch} ms  (target ≤ ${TARGET_MS} ms); ${loadAverage()}`);
  return [{ part: 'P5', figure: '3 parallel 1 s tools, batch wall time (median)', value: `${batch} ms`, target: `≤ ${TARGET_MS} ms`, met: batch <= TARGET_MS, load: loadavg()[0] }];
}
