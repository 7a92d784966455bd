// The model-quota part of `npm run bench`: three workers share a model limit of 60 requests per
// minute, kept by the model's quota workflow; 200 one-iteration runs start at once. The scripted
// model server keeps the same limit as a provider would (a 429 past it) and logs when each request came.
import { loadavg } from 'node:os';
import { NativeConnection } from '@temporalio/worker';
import { AgentClient } from '../src/client/agent-client';
import { createChatModel } from '../src/model/create-chat-model';
import { startScriptedModelServer } from '../src/testing/scripted-model-server';
import { defineAgent } from '../src/toolkit/define-agent';
import { createWorker, type AgentWorker } from '../src/worker/create-worker';
import type { SummaryRow } from './summary';

const RUNS = Number(process.env.BENCH_QUOTA_RUNS ?? 200);
const LIMIT = 60;
const WORKERS = 3;
const answerer = defineAgent({ name: 'bench-quota', instructions: 'Answer.', model: 'bench-quota' });

/** The most requests any 60 s window held, and the count of each whole minute from the first request. */
export function minuteCounts(arrivals: number[]): { busiest: number; minutes: number[] } {
  const sorted = [...arrivals].sort((a, b) => a - b);
  let busiest = 0;
  for (let end = 0, start = 0; end < sorted.length; end++) {
    while (sorted[end]! - sorted[start]! >= 60_000) start++;
    busiest = Math.max(busiest, end - start + 1);
  }
  const minutes: number[] = [];
  for (const at of sorted) {
    const minute = Math.floor((at - sorted[0]!) / 60_000);
    minutes[minute] = (minutes[minute] ?? 0) + 1;
  }
  return { busiest, minutes: Array.from(minutes, (count) => count ?? 0) };
}

export async function measureModelQuota(options: { address: string; bundleFile: string }): Promise<SummaryRow[]> {
  const model = await startScriptedModelServer({ byModel: { 'bench-quota': () => 'answered' }, requestsPerMinute: LIMIT });
  const taskQueue = `bench-quota-${Date.now().toString(36)}`;
  // Each worker with its own connection, as three worker processes would have.
  const connections = await Promise.all(Array.from({ length: WORKERS }, () => NativeConnection.connect({ address: options.address })));
  const workers: AgentWorker[] = [];
  const running: Promise<void>[] = [];
  const client = await AgentClient.connect({ address: options.address, taskQueue });
  try {
    for (const connection of connections) {
      const worker = await createWorker({
        agents: [answerer],
        connection,
        config: { taskQueue, defaultModel: 'bench-quota', live: { off: true }, modelLimits: { 'bench-quota': { requestsPerMinute: LIMIT } } },
        model: createChatModel({ baseURL: model.baseURL, apiKey: 'bench', defaultModel: 'bench-quota' }),
        workflowBundle: { codePath: options.bundleFile },
        log: () => undefined,
      });
      workers.push(worker);
      running.push(worker.run());
    }
    const started = performance.now();
    const runs = await Promise.all(Array.from({ length: RUNS }, (_, i) => client.start('bench-quota', { prompt: `question ${i}` })));
    const results = await Promise.all(runs.map((run) => run.result()));
    const seconds = (performance.now() - started) / 1000;
    const completed = results.filter((result) => result.status === 'completed').length;
    const { busiest, minutes } = minuteCounts(model.requests.map((request) => request.at));
    const load = loadavg()[0]!;
    return [
      {
        part: 'quota',
        figure: `${RUNS} one-iteration runs on ${WORKERS} workers, a model limit of ${LIMIT} requests per minute: the most requests the model server saw in any 60 s (each whole minute from the first)`,
        value: `${busiest} (${minutes.join(', ')}); ${completed}/${RUNS} completed in ${seconds.toFixed(0)} s`,
        target: `≤ ${LIMIT} ± 5%`,
        met: busiest <= LIMIT * 1.05,
        load,
      },
      { part: 'quota', figure: `429s the model server answered (it keeps the same ${LIMIT} per minute)`, value: String(model.rateLimited), target: '0', met: model.rateLimited === 0, load },
    ];
  } finally {
    await client.close();
    for (const worker of workers) worker.shutdown();
    await Promise.all(running);
    for (const connection of connections) await connection.close();
    await model.close();
  }
}
