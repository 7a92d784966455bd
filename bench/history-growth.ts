import { loadavg } from 'node:os';
import type { Client } from '@temporalio/client';
import type { AgentRunResult } from '../src/common/run';
import { PAGE_CHARS } from './bench-agents';
import { activitySpans, eventBytes, historyBytes } from './history-activities';
import { loadAverage } from './load-average';
import type { SummaryRow } from './summary';
import { agentInput } from './agent-start';

interface Growth {
  iterations: number;
  events: number;
  totalBytes: number;
  /** Events before the first model call: the start, describing the agent. */
  setupBytes: number;
  /** The last iteration that ran a tool: its model call, the check, the tool. */
  lastToolIterationBytes: number;
  /** The answering model call and the completion, whose result carries the whole conversation. */
  finalIterationBytes: number;
}

const FLAT = 0.1;
const TARGET_PAGE_ITERATION_BYTES = 6000;

async function measureRun(client: Client, taskQueue: string, iterations: number, agent = 'loop'): Promise<Growth> {
  const workflowId = `history-${agent}-${iterations}`;
  const result: AgentRunResult = await client.workflow.execute('agentWorkflow', {
    taskQueue,
    workflowId,
    args: [agentInput(agent, String(iterations), { maxIters: iterations })],
  });
  if (result.status !== 'completed' || result.iterations !== iterations) throw new Error(`unexpected loop result: ${result.status}, ${result.iterations} iterations`);
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  if (events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId) throw new Error(`${workflowId} continued as new: its history is not the whole run`);
  const modelCalls = activitySpans(history).filter((span) => span.type === 'callModel').map((span) => span.scheduledIndex);
  if (modelCalls.length !== iterations) throw new Error(`${workflowId}: ${modelCalls.length} model calls in history for ${iterations} iterations`);
  const bytes = (from: number, to: number) => events.slice(from, to).reduce((sum, event) => sum + eventBytes(event), 0);
  return {
    iterations,
    events: events.length,
    totalBytes: historyBytes(history),
    setupBytes: bytes(0, modelCalls[0]),
    lastToolIterationBytes: bytes(modelCalls[iterations - 2], modelCalls[iterations - 1]),
    finalIterationBytes: bytes(modelCalls[iterations - 1], events.length),
  };
}

/** P4: history bytes per iteration of a short and a long run of the same loop, from the histories themselves. */
export async function measureHistoryGrowth(options: { client: Client; taskQueue: string; short: number; long: number }): Promise<SummaryRow[]> {
  const short = await measureRun(options.client, options.taskQueue, options.short);
  const long = await measureRun(options.client, options.taskQueue, options.long);
  console.log(`\nP4 history bytes per iteration (encoded protobuf events; an iteration = one model call + one noop tool):`);
  for (const g of [short, long]) {
    console.log(
      `  ${String(g.iterations).padStart(3)} iterations: ${g.events} events, ${g.totalBytes} bytes, ${(g.totalBytes / g.iterations).toFixed(0)} bytes/iteration; ` +
        `start ${g.setupBytes} B, last tool iteration ${g.lastToolIterationBytes} B, answer + completion ${g.finalIterationBytes} B`,
    );
  }
  const perIteration = long.totalBytes / long.iterations / (short.totalBytes / short.iterations);
  const lastIteration = long.lastToolIterationBytes / short.lastToolIterationBytes;
  const marginal = (long.totalBytes - short.totalBytes) / (long.iterations - short.iterations);
  console.log(`  each added iteration: ${marginal.toFixed(0)} bytes ((total ${long.iterations} − total ${short.iterations}) / ${long.iterations - short.iterations})`);
  console.log(`ratio ${long.iterations}/${short.iterations}: bytes/iteration ${perIteration.toFixed(3)}, last tool iteration ${lastIteration.toFixed(3)}  (target flat within 10%); ${loadAverage()}`);
  // The same loop with a realistic tool result (PAGE_CHARS of text each iteration).
  const pagesShort = await measureRun(options.client, options.taskQueue, options.short, 'reader');
  const pagesLong = await measureRun(options.client, options.taskQueue, options.long, 'reader');
  const pageMarginal = (pagesLong.totalBytes - pagesShort.totalBytes) / (pagesLong.iterations - pagesShort.iterations);
  const pageIteration = pagesLong.lastToolIterationBytes;
  console.log(
    `  with a ${PAGE_CHARS}-character tool result each iteration: one tool iteration (model call, tool) ${pagesShort.lastToolIterationBytes} B at ${pagesShort.iterations} iterations, ` +
      `${pageIteration} B at ${pagesLong.iterations} (target ≤ ${TARGET_PAGE_ITERATION_BYTES}); each added iteration ${pageMarginal.toFixed(0)} B with the completion, ` +
      `whose result carries the conversation (${pagesLong.finalIterationBytes} B at ${pagesLong.iterations})`,
  );
  const load = loadavg()[0];
  const flat = (ratio: number) => Math.abs(ratio - 1) <= FLAT;
  return [
    { part: 'P4', figure: `history bytes/iteration, ${long.iterations} vs ${short.iterations}`, value: perIteration.toFixed(3), target: '1 ± 0.10', met: flat(perIteration), load },
    { part: 'P4', figure: `last tool iteration bytes, ${long.iterations} vs ${short.iterations}`, value: lastIteration.toFixed(3), target: '1 ± 0.10', met: flat(lastIteration), load },
    {
      part: 'P4',
      figure: `bytes of a tool iteration with a ${PAGE_CHARS}-char result, at ${pagesLong.iterations}`,
      value: `${pageIteration} (${(pageIteration / pagesShort.lastToolIterationBytes).toFixed(3)} of it at ${pagesShort.iterations})`,
      target: `≤ ${TARGET_PAGE_ITERATION_BYTES}, flat`,
      met: pageIteration <= TARGET_PAGE_ITERATION_BYTES && flat(pageIteration / pagesShort.lastToolIterationBytes),
      load,
    },
  ];
}
