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
import type { SummaryRow } from './summary';

const BIG = Number(process.env.BENCH_FAIR_BIG ?? 200);
const SMALL = 5;
const TOOL_MS = 100;

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

export async function measureFairness(options: { address: string; bundleFile: string }): Promise<SummaryRow[]> {
  const model = await startScriptedModelServer({ byModel: { 'bench-laborer': (_request, info) => (info.turnIndex === 0 ? { toolCalls: [{ name: 'work', arguments: {} }] } : 'worked') } });
  const connection = await NativeConnection.connect({ address: options.address });
  const taskQueue = 'bench-fair';
  // A worker of a few slots: the runs' steps queue up on the server, as on a busy fleet.
  const worker = await createWorker({
    agents: [laborer],
    connection,
    config: { taskQueue, defaultModel: 'bench-laborer', live: { off: true } },
    model: createChatModel({ baseURL: model.baseURL, apiKey: 'bench', defaultModel: 'bench-laborer' }),
    workflowBundle: { codePath: options.bundleFile },
    workerOptions: { maxConcurrentActivityTaskExecutions: 4 },
    log: () => undefined,
  });
  const running = worker.run();
  const client = await AgentClient.connect({ address: options.address, taskQueue });
  const rows: SummaryRow[] = [];
  try {
    await (await startRuns(client, 'warm-up', SMALL, true)).done;
    const alone = await (await startRuns(client, 'small-user', SMALL, true)).done;
    for (const fairness of [true, false]) {
      const big = await startRuns(client, 'big-user', BIG, fairness);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const small = await (await startRuns(client, 'small-user', SMALL, fairness)).done;
      await big.done;
      const ratio = small / alone;
      rows.push({
        part: 'fair',
        figure: `${SMALL} runs of one user beside ${BIG} of another ÷ the ${SMALL} alone (one worker, 4 activity slots)${fairness ? '' : ', without fairness keys'}`,
        value: `${ratio.toFixed(2)} (${(small / 1000).toFixed(1)} vs ${(alone / 1000).toFixed(1)} s)`,
        target: fairness ? '≤ 2' : 'measured',
        ...(fairness ? { met: ratio <= 2 } : {}),
        load: loadavg()[0]!,
      });
    }
  } finally {
    await client.close();
    worker.shutdown();
    await running;
    await connection.close();
    await model.close();
  }
  return rows;
}
