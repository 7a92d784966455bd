// `npx tsx bench/profile-runs.ts [agent|loop|floor] [RUNS]`: the worker's CPU profile (per thread) over
// RUNS runs of the throughput part's agent (6 model calls, 5 tools), its hand-written loop (the same
// calls, bench/floor-workflow.ts) or its no-op floor (11 no-op activities),
// 25 at a time, on a dev server of its own with the project's settings. Start it with
// `node --cpu-prof --cpu-prof-dir=DIR --import tsx bench/profile-runs.ts`, then `npx tsx bench/profile-runs.ts --summary DIR`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { ensureSearchAttributes } from '../src/worker/ensure-search-attributes';
import { bundleBenchWorkflows, startBenchWorker } from './bench-worker';
import { mapLimit } from './map-limit';
import { startModelServerProcess } from './model-server-process';
import { summarizeProfiles } from './profile-summary';
import { agentInput } from './agent-start';
import { iterationsLoop } from './hand-written-loop';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startDevServer, findFreePorts } = require('../scripts/dev-server.cjs');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { findTemporalCli } = require('../scripts/temporal-cli.cjs');

async function main(): Promise<void> {
  if (process.argv[2] === '--summary') {
    for (const block of summarizeProfiles(process.argv[3]!)) console.log(block);
    return;
  }
  const kind = process.argv[2] === 'floor' || process.argv[2] === 'loop' ? process.argv[2] : 'agent';
  const runs = Number(process.argv[3] ?? 200);
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const [port, uiPort] = await findFreePorts(2);
  const server = await startDevServer({ cliPath: findTemporalCli({ install: true }), port, uiPort, headless: true, dbFile: join(mkdtempSync(join(tmpdir(), 'profile-')), 'db.sqlite') });
  const model = await startModelServerProcess();
  const native = await NativeConnection.connect({ address: server.address });
  await ensureSearchAttributes(native, 'default', () => undefined);
  const client = new Client({ connection: await Connection.connect({ address: server.address }) });
  const worker = await startBenchWorker({ connection: native, modelUrl: model.baseURL, taskQueue: 'profile', bundle: await bundleBenchWorkflows() });
  const start = (i: number): Promise<unknown> => {
    if (kind === 'floor') return client.workflow.execute('floorActivitiesWorkflow', { taskQueue: 'profile', workflowId: `floor-${i}`, args: [11] });
    if (kind === 'loop') return client.workflow.execute('handWrittenLoopWorkflow', { taskQueue: 'profile', workflowId: `loop-${i}`, args: [iterationsLoop(6)] });
    return client.workflow.execute('agentWorkflow', { taskQueue: 'profile', workflowId: `agent-${i}`, args: [agentInput('loop', '6', { maxIters: 6 })] });
  };
  await mapLimit([...Array(20).keys()], 10, (i) => start(-1 - i));
  const cpu = process.cpuUsage();
  const began = performance.now();
  await mapLimit([...Array(runs).keys()], 25, start);
  const used = process.cpuUsage(cpu);
  console.log(`${runs} ${kind} runs: ${((performance.now() - began) / 1000).toFixed(1)} s, worker process CPU ${((used.user + used.system) / 1000 / runs).toFixed(1)} ms/run`);
  await worker.stop();
  await model.close();
  await server.stop();
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
