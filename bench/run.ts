import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { z } from 'zod';
import { createActivities } from '../src/activities/create-activities';
import { queryConversationReader } from '../src/activities/conversation-reader';
import { createChatModel } from '../src/model/create-chat-model';
import { startScriptedModelServer } from '../src/testing/scripted-model-server';
import { AgentRegistry } from '../src/toolkit/agent-registry';
import { defineAgent } from '../src/toolkit/define-agent';
import { defineTool } from '../src/toolkit/define-tool';
import { ensureSearchAttributes } from '../src/worker/ensure-search-attributes';
import { median, mib, percentile } from './stats';
import { measureCliTimings } from './cli-timings';
import { measureWorkerStarts } from './worker-start';
import { agentWorkflowSinks } from '../src/telemetry/agent-workflow-sinks';
import { agentWorkflowInterceptorModules } from '../src/telemetry/workflow-interceptor-modules';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { findTemporalCli } = require('../scripts/temporal-cli.cjs');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startDevServer, findFreePort } = require('../scripts/dev-server.cjs');

const ROOT = join(__dirname, '..');
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const WORKER_STARTS = Number(process.env.BENCH_WORKER_STARTS ?? 5);
const CLI_RUNS = Number(process.env.BENCH_CLI_RUNS ?? 10);
const TASK_QUEUE = 'bench';

const noopTool = defineTool({ name: 'noop', description: 'Does nothing.', input: z.object({}), execute: () => 'ok' });
const benchAgent = defineAgent({ name: 'bench', instructions: 'Call noop once, then answer.', tools: [noopTool] });

/**
 * `npm run bench`: in one run against one local dev server, (a) the floor — a bare workflow with
 * two no-op activities in sequence — and (b) one agent iteration — the scripted model asks for a
 * no-op tool, the tool runs, the model answers — alternating, so both see the same machine state.
 */
async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const stateDir = mkdtempSync(join(tmpdir(), 'durable-agent-bench-'));
  const cliPath = findTemporalCli({ root: ROOT, install: true, log: () => undefined });
  if (!cliPath) throw new Error('No Temporal CLI: run `node scripts/temporal-cli.cjs` first.');
  const server = await startDevServer({
    cliPath,
    port: await findFreePort(),
    uiPort: await findFreePort(),
    headless: true,
    dbFile: join(stateDir, 'bench.sqlite'),
    log: () => undefined,
  });
  const model = await startScriptedModelServer({
    script: (_req, info) => (info.turnIndex === 0 ? { toolCalls: [{ name: 'noop', arguments: {} }] } : 'done'),
  });
  try {
    const native = await NativeConnection.connect({ address: server.address });
    await ensureSearchAttributes(native, 'default', () => undefined);
    const registry = new AgentRegistry([benchAgent], { defaultModel: 'scripted-model' });
    const activities = {
      ...createActivities({
        registry,
        model: createChatModel({ baseURL: model.baseURL, apiKey: 'bench', defaultModel: 'scripted-model' }),
        conversations: queryConversationReader(new Client({ connection: native })),
      }),
      noop: async () => undefined,
    };
    // With the agent workflow's own interceptors and sinks, as every worker of it runs (tracing not exported).
    const { code } = await bundleWorkflowCode({
      workflowsPath: require.resolve('./workflows'),
      workflowInterceptorModules: agentWorkflowInterceptorModules(),
      logger: new DefaultLogger('ERROR'),
    });
    const worker = await Worker.create({ connection: native, taskQueue: TASK_QUEUE, activities, workflowBundle: { code }, sinks: agentWorkflowSinks() });
    const running = worker.run();

    const client = new Client({ connection: await Connection.connect({ address: server.address }) });
    let n = 0;
    const floor = async () => {
      const t = performance.now();
      await client.workflow.execute('floorWorkflow', { taskQueue: TASK_QUEUE, workflowId: `floor-${n++}`, args: [] });
      return performance.now() - t;
    };
    const agent = async () => {
      const t = performance.now();
      const result = await client.workflow.execute('agentWorkflow', {
        taskQueue: TASK_QUEUE,
        workflowId: `agent-${n++}`,
        args: [{ agent: 'bench', prompt: 'go', runtime: {} }],
      });
      if ((result as { output: string }).output !== 'done') throw new Error('unexpected agent result');
      return performance.now() - t;
    };

    for (let i = 0; i < WARMUP; i++) await Promise.all([floor(), agent()].map((p) => p));
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      a.push(await floor());
      b.push(await agent());
    }
    const rss = process.memoryUsage().rss;
    const ma = median(a);
    const mb = median(b);
    console.log(`rounds: ${ROUNDS} each (after ${WARMUP} warm-up), alternating, one dev server, one worker`);
    console.log(`(a) floor, 2 no-op activities:   median ${ma.toFixed(1)} ms  (p90 ${percentile(a, 90).toFixed(1)} ms)`);
    console.log(`(b) one agent iteration:         median ${mb.toFixed(1)} ms  (p90 ${percentile(b, 90).toFixed(1)} ms)`);
    console.log(`ratio b/a: ${(mb / ma).toFixed(2)}  (target ≤ 1.5)`);
    console.log(`worker process RSS: ${mib(rss)}`);
    worker.shutdown();
    await running;

    const starts = await measureWorkerStarts({ address: server.address, modelUrl: model.baseURL, starts: WORKER_STARTS, dir: stateDir });
    const plain = median(starts.withoutBundle);
    const prebuilt = median(starts.withBundle);
    const load = loadavg().map((value) => value.toFixed(2)).join(' ');
    console.log(`worker start (createWorker until ready, each in a fresh process), ${WORKER_STARTS} each, alternating:`);
    console.log(`  bundling the workflow code at start:  median ${plain.toFixed(0)} ms  (max ${Math.max(...starts.withoutBundle).toFixed(0)} ms)`);
    console.log(`  prebuilt bundle (durable-agent bundle): median ${prebuilt.toFixed(0)} ms  (max ${Math.max(...starts.withBundle).toFixed(0)} ms)`);
    console.log(`  ratio ${(plain / prebuilt).toFixed(1)}×; making the bundle took ${starts.bundleMs.toFixed(0)} ms; load average ${load} on ${availableParallelism()} cores`);

    const cli = await measureCliTimings({ address: server.address, temporalCli: cliPath, runs: CLI_RUNS });
    const cliLoad = loadavg().map((value) => value.toFixed(2)).join(' ');
    console.log(`CLI (compiled, a fresh process each), ${CLI_RUNS} each, alternating; load average ${cliLoad}:`);
    console.log(`  durable-agent --help:        median ${median(cli.help).toFixed(0)} ms  (target < 500 ms)`);
    console.log(`  durable-agent list:          median ${median(cli.list).toFixed(0)} ms  (target < 1000 ms)`);
    console.log(`  temporal workflow list:      median ${median(cli.temporalList).toFixed(0)} ms`);
    console.log(`  ratio list / temporal workflow list: ${(median(cli.list) / median(cli.temporalList)).toFixed(2)}`);
    await native.close();
  } finally {
    await model.close();
    await server.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
