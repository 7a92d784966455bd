// The fairness part of `npm run bench`: a user with 5 runs beside a user with 200 on one task
// queue, against the same 5 runs alone, with the users' fairness keys and without.
import { loadavg } from 'node:os';
import { z } from 'zod';
import { NativeConnection } from '@temporalio/worker';
import { AgentClient } from '../src/client/agent-client';
import { createChatModel } from '../src/model/create-chat-model';
import { startScriptedModelServer } from '../src/testing/scripted-model-server';
import { defineAgent } from '../src/toolkit/define-agent';
import { defineTool } from '../src/toolkit/define-tool';
import { createWorker } from '../src/worker/create-worker';
import { median } from './stats';
import type { SummaryRow } from './summary';

const BIG = Number(process.env.BENCH_FAIR_BIG ?? 200);
const SMALL = 5;
const ROUNDS = Number(process.env.BENCH_FAIR_ROUNDS ?? 3);
/**
 * The worker's activity slots, one measurement each (BENCH_FAIR_SLOTS=4,10 for two). With 4, fewer
 * than the small user's 5 runs, half the slots is already twice the time; with 10 the worker's CPU
 * (200 runs' workflow tasks on 2 cores) holds the small user back instead (measured: 3.28).
 */
const SLOTS = (process.env.BENCH_FAIR_SLOTS ?? '4').split(',').map(Number);
/**
 * Long enough that the activity slots, not the worker's CPU, hold the backlog: with 0.1 s tools
 * the 200 runs' workflow tasks saturate this machine's two cores and every run waits for CPU,
 * which no task-queue order can change (measured: 4.3× with keys, 24× without).
 */
const TOOL_MS = 500;

const workTool = defineTool({
  name: 'work',
  description: 'Work for a while.',
  input: z.object({}),
  execute: () => new Promise<string>((resolve) => setTimeout(() => resolve('done'), TOOL_MS)),
});
const laborer = defineAgent({ name: 'bench-laborer', instructions: 'Work once, then answer.', model: 'bench-laborer', tools: [workTool] });

/** Starts `count` runs of the user; `done` is the wall time from the first start to the last end. */
async function startRuns(client: AgentClient, userId: string, count: number, fairness: boolean): Promise<{ done: Promise<number> }> {
  const started = performance.now();
  const runs = await Promise.all(Array.from({ length: count }, () => client.start('bench-laborer', { prompt: 'go', userId, ...(fairness ? {} : { fairness: false }) })));
  return { done: Promise.all(runs.map((run) => run.result())).then(() => performance.now() - started) };
}

/** One worker of `slots` activity slots on its own queue: the small user alone, then beside the big one with keys and without. */
async function measureWithSlots(address: string, bundleFile: string, modelUrl: string, connection: NativeConnection, slots: number): Promise<SummaryRow[]> {
  const taskQueue = `bench-fair-${slots}`;
  // Few slots: the runs' steps queue up on the server, as on a busy fleet.
  const worker = await createWorker({
    agents: [laborer],
    connection,
    config: { taskQueue, defaultModel: 'bench-laborer', live: { off: true } },
    model: createChatModel({ baseURL: modelUrl, apiKey: 'bench', defaultModel: 'bench-laborer' }),
    workflowBundle: { codePath: bundleFile },
    workerOptions: { maxConcurrentActivityTaskExecutions: slots },
    log: () => undefined,
  });
  const running = worker.run();
  const client = await AgentClient.connect({ address, taskQueue });
  const rows: SummaryRow[] = [];
  try {
    await (await startRuns(client, 'warm-up', SMALL, true)).done;
    const ratios: Record<'fair' | 'fifo', number[]> = { fair: [], fifo: [] };
    const seconds: Record<'fair' | 'fifo' | 'alone', number[]> = { fair: [], fifo: [], alone: [] };
    // Alternating rounds: five runs are a small sample, and where they land among the big user's steps varies.
    for (let round = 0; round < ROUNDS; round++) {
      const alone = await (await startRuns(client, 'small-user', SMALL, true)).done;
      seconds.alone.push(alone / 1000);
      for (const fairness of [true, false]) {
        const big = await startRuns(client, 'big-user', BIG, fairness);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const small = await (await startRuns(client, 'small-user', SMALL, fairness)).done;
        await big.done;
        ratios[fairness ? 'fair' : 'fifo'].push(small / alone);
        seconds[fairness ? 'fair' : 'fifo'].push(small / 1000);
      }
    }
    for (const kind of ['fair', 'fifo'] as const) {
      const ratio = median(ratios[kind]);
      rows.push({
        part: 'fair',
        figure: `${SMALL} runs of one user beside ${BIG} of another ÷ the ${SMALL} alone, median of ${ROUNDS} rounds (one worker, ${slots} activity slots, ${TOOL_MS / 1000} s tools)${kind === 'fair' ? '' : ', without fairness keys'}`,
        value: `${ratio.toFixed(2)} (${median(seconds[kind]).toFixed(1)} vs ${median(seconds.alone).toFixed(1)} s; rounds ${ratios[kind].map((r) => r.toFixed(1)).join(', ')})`,
        target: kind === 'fair' ? '≤ 2' : 'measured',
        ...(kind === 'fair' ? { met: ratio <= 2 } : {}),
        load: loadavg()[0]!,
      });
    }
  } finally {
    await client.close();
    worker.shutdown();
    await running;
  }
  return rows;
}

export async function measureFairness(options: { address: string; bundleFile: string }): Promise<SummaryRow[]> {
  const model = await startScriptedModelServer({ byModel: { 'bench-laborer': (_request, info) => (info.turnIndex === 0 ? { toolCalls: [{ name: 'work', arguments: {} }] } : 'worked') } });
  const connection = await NativeConnection.connect({ address: options.address });
  try {
    const rows: SummaryRow[] = [];
    for (const slots of SLOTS) rows.push(...(await measureWithSlots(options.address, options.bundleFile, model.baseURL, connection, slots)));
    return rows;
  } finally {
    await connection.close();
    await model.close();
  }
}
