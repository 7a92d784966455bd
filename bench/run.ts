// `npm run bench`: the whole performance story in one run, against one local dev server.
// `npm run bench -- --cluster` (or BENCH_CLUSTER=1): the cluster's figures instead (bench/cluster-bench.ts).
//
// Environment (all optional):
//   BENCH_ONLY               parts to run, comma-separated: p1, start, cli, p2, p3, p4, p5, conv, sub, fork, loop, cases, stream, fair, quota, wait, model, evals, policy, remind, nexus, schedule (default: all)
//   BENCH_STREAMED_RUNS      runs of the loop part's streamed five-turn loop (and as many awaited by result(), alternating) (20)
//   BENCH_LOOP_TIMELINE      set: the loop part also prints when each item of one streamed run arrived
//   BENCH_QUOTA_RUNS         runs in the model-quota part (200)
//   BENCH_FAIR_BIG           the big user's runs in the fairness part (200)
//   BENCH_FAIR_SLOTS         the worker's activity slots in the fairness part, one measurement each (4)
//   BENCH_STREAM_CALLS       model calls the stream part times the first delta of, for each kind (50)
//   BENCH_WARMUP             P1 warm-up rounds (5)
//   BENCH_ROUNDS             P1 rounds of each kind (40)
//   BENCH_WORKER_STARTS      worker starts of each kind (5)
//   BENCH_CLI_RUNS           runs of each CLI command (10)
//   BENCH_THROUGHPUT_RUNS    P2 runs started at once per batch (50)
//   BENCH_THROUGHPUT_ROUNDS  P2 batches of each kind, alternating (3)
//   BENCH_PARKED             P3 runs parked on an approval at once, and fresh runs compared (1000)
//   BENCH_PARKED_MAX_CACHED  P3 worker's maxCachedWorkflows (the Temporal SDK's default)
//   BENCH_PARKED_TIMEOUT     P3 longest wait for each phase, in seconds (600)
//   BENCH_PARALLEL_RUNS      P5 runs (3)
//   BENCH_MODELS             the real-model part's model sizes (0.5b,1.5b), built and fetched into .tools/ when missing
//   BENCH_EVAL_MODELS        the evals part's local models (0.5b,1.5b,gemma-270m): the support eval, calls held to the schemas and not
//   BENCH_EVAL_REPEAT        the evals part's --repeat (5)
//   BENCH_EVAL_MODES         the evals part's ways of reading calls: held (to the schemas), text (held,text)
//   BENCH_POLICY_ROUNDS      runs of each kind in the policy part (unpoliced, Cedar, Rego; 40), and BENCH_POLICY_CHECKS checks of each (2000)
//   BENCH_REMIND_RUNS        runs parked with reminders (4h, 1d) and an escalation (2d) in the remind part, and as many without (1000)
//   BENCH_SCHEDULE_FIRES     schedule fires whose start latency the schedule part times (100)
//   BENCH_WAITING            runs waiting at once in the waiting-calls part, comma-separated (1000,10000); or `--waiting N[,N…]`
import { AgentClient } from '../src/client/agent-client';
import { runClusterBench, wantsClusterBench } from './cluster-bench';
import { measureConversationTurns } from './conversation-turns';
import { measureSubAgentCall } from './sub-agent-call';
import { measureForks } from './fork-bench';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { startModelServerProcess } from './model-server-process';
import { ensureSearchAttributes } from '../src/worker/ensure-search-attributes';
import { bundleBenchWorkflows, startBenchWorker } from './bench-worker';
import { measureCliTimings, reportCliTimings } from './cli-timings';
import { measureHistoryGrowth } from './history-growth';
import { loadAverage } from './load-average';
import { measureOneIteration } from './one-iteration';
import { measureIterationCost } from './iteration-cost';
import { measureParallelTools } from './parallel-tools';
import { measureParkedRuns } from './parked-memory';
import { selectedParts, type BenchPart } from './parts';
import { printSummary, type SummaryRow } from './summary';
import { measureThroughput } from './throughput';
import { measureWorkerStarts, reportWorkerStarts } from './worker-start';
import { measureWaitingCalls, waitingCounts } from './waiting-calls';
import { measureRealModels } from './real-model';
import { evalModes, measureModelEvals } from './model-evals';
import { measureEvalCases } from './eval-cases';
import { measureStreams } from './stream-bench';
import { measureFairness } from './fairness-bench';
import { measureModelQuota } from './quota-bench';
import { bundleReleaseWorkflows, type Release } from './release-bundle';
import { measureStreamedLoop } from './streamed-loop';
import { measurePolicies } from './policy-bench';
import { measureReminders } from './remind-bench';
import { measureNexus, NEXUS_CALLER_NAMESPACE } from './nexus-bench';
import { measureSchedules } from './schedule-bench';

/** The release whose workflow code P1 runs beside this one's. */
const PREVIOUS_RELEASE: Release = '0.6.0';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { findTemporalCli } = require('../scripts/temporal-cli.cjs');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startDevServer, findFreePort } = require('../scripts/dev-server.cjs');

const ROOT = join(__dirname, '..');
const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const WARMUP = setting('BENCH_WARMUP', 5);
const ROUNDS = setting('BENCH_ROUNDS', 40);
const WORKER_STARTS = setting('BENCH_WORKER_STARTS', 5);
const CLI_RUNS = setting('BENCH_CLI_RUNS', 10);
const THROUGHPUT_RUNS = setting('BENCH_THROUGHPUT_RUNS', 50);
const THROUGHPUT_ROUNDS = setting('BENCH_THROUGHPUT_ROUNDS', 3);
const PARKED = setting('BENCH_PARKED', 1000);
const PARKED_TIMEOUT_S = setting('BENCH_PARKED_TIMEOUT', 600);
const PARALLEL_RUNS = setting('BENCH_PARALLEL_RUNS', 3);
const STREAMED_RUNS = setting('BENCH_STREAMED_RUNS', 20);
const TASK_QUEUE = 'bench';

function writeBundleFile(file: string, bundle: { code: string }): string {
  writeFileSync(file, bundle.code);
  return file;
}

async function main(): Promise<void> {
  if (wantsClusterBench()) return runClusterBench();
  const parts = selectedParts(process.env.BENCH_ONLY ?? (process.argv.includes('--waiting') ? 'wait' : undefined));
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  console.log(`durable-agent bench: ${[...parts].join(', ')}; node ${process.version}; ${loadAverage()}`);
  const stateDir = mkdtempSync(join(tmpdir(), 'durable-agent-bench-'));
  const cliPath = findTemporalCli({ root: ROOT, install: true, log: () => undefined });
  if (!cliPath) throw new Error('No Temporal CLI: run `node scripts/temporal-cli.cjs` first.');
  const server = await startDevServer({
    cliPath,
    port: await findFreePort(),
    uiPort: await findFreePort(),
    headless: true,
    dbFile: join(stateDir, 'bench.sqlite'),
    // The nexus part's caller workflows run in a namespace of their own.
    namespaces: [NEXUS_CALLER_NAMESPACE],
    log: () => undefined,
  });
  // In a process of its own: the bench process's CPU is then the worker's (and the client's).
  const model = await startModelServerProcess();
  const rows: SummaryRow[] = [];
  let failed = false;
  // A part that fails is reported and the others still run, so the table shows what was measured.
  const part = async (name: BenchPart, measure: () => Promise<SummaryRow[]>) => {
    if (!parts.has(name)) return;
    try {
      rows.push(...(await measure()));
    } catch (error) {
      failed = true;
      console.error(`\n${name} failed:`, error);
      rows.push({ part: name, figure: 'failed', value: (error as Error).message.split('\n')[0].slice(0, 60), target: '', met: false, load: loadavg()[0] });
    }
  };
  try {
    const native = await NativeConnection.connect({ address: server.address });
    await ensureSearchAttributes(native, 'default', () => undefined);
    const client = new Client({ connection: await Connection.connect({ address: server.address }) });
    const needsWorker = ['p1', 'p2', 'p3', 'p4', 'p5', 'conv', 'sub', 'fork', 'loop', 'cases', 'stream', 'fair', 'quota', 'wait', 'policy', 'remind', 'nexus', 'schedule'].some((name) => parts.has(name as BenchPart));
    const bundle = needsWorker ? await bundleBenchWorkflows() : undefined;
    const benchWorker = () => startBenchWorker({ connection: native, modelUrl: model.baseURL, taskQueue: TASK_QUEUE, bundle: bundle! });

    await part('p1', async () => {
      const worker = await benchWorker();
      const previous = await startBenchWorker({ connection: native, modelUrl: model.baseURL, taskQueue: `${TASK_QUEUE}-${PREVIOUS_RELEASE}`, bundle: await bundleReleaseWorkflows(PREVIOUS_RELEASE) });
      try {
        const run = await measureOneIteration({
          client,
          taskQueue: TASK_QUEUE,
          warmup: WARMUP,
          rounds: ROUNDS,
          serverPid: server.pid,
          release: { name: PREVIOUS_RELEASE, taskQueue: `${TASK_QUEUE}-${PREVIOUS_RELEASE}` },
          model,
        });
        return [...(await measureIterationCost({ client, taskQueue: TASK_QUEUE, warmup: WARMUP, rounds: ROUNDS, serverPid: server.pid })), ...run];
      } finally {
        await previous.stop();
        await worker.stop();
      }
    });
    await part('start', async () =>
      reportWorkerStarts(await measureWorkerStarts({ address: server.address, modelUrl: model.baseURL, starts: WORKER_STARTS, dir: stateDir }), WORKER_STARTS),
    );
    await part('cli', async () => reportCliTimings(await measureCliTimings({ address: server.address, temporalCli: cliPath, runs: CLI_RUNS }), CLI_RUNS));

    if (['p2', 'p4', 'p5', 'conv', 'sub', 'fork'].some((name) => parts.has(name as BenchPart))) {
      const worker = await benchWorker();
      try {
        await part('p2', () =>
          measureThroughput({ client, taskQueue: TASK_QUEUE, runs: THROUGHPUT_RUNS, rounds: THROUGHPUT_ROUNDS, iterations: 6, floorActivities: 11, serverPid: server.pid }),
        );
        await part('p4', () => measureHistoryGrowth({ client, taskQueue: TASK_QUEUE, short: 5, long: 50 }));
        await part('p5', () => measureParallelTools({ client, taskQueue: TASK_QUEUE, runs: PARALLEL_RUNS }));
        const withAgents = async (measure: (agents: AgentClient) => Promise<SummaryRow[]>) => {
          const agents = await AgentClient.connect({ address: server.address, taskQueue: TASK_QUEUE });
          try {
            return await measure(agents);
          } finally {
            await agents.close();
          }
        };
        await part('conv', () => withAgents((agents) => measureConversationTurns({ client: agents, warmup: WARMUP, rounds: ROUNDS })));
        await part('sub', () => withAgents((agents) => measureSubAgentCall({ client: agents, warmup: WARMUP, rounds: ROUNDS })));
        await part('fork', () => withAgents((agents) => measureForks({ client: agents, warmup: WARMUP, rounds: Math.min(ROUNDS, 20) })));
      } finally {
        await worker.stop();
      }
    }
    await part('loop', () =>
      measureStreamedLoop({ address: server.address, bundleFile: writeBundleFile(join(stateDir, 'bench-loop-bundle.js'), bundle!), model, runs: STREAMED_RUNS, warmup: Math.min(WARMUP, 3) }),
    );
    await part('cases', () => measureEvalCases({ address: server.address, bundleFile: writeBundleFile(join(stateDir, 'bench-eval-bundle.js'), bundle!) }));
    await part('stream', () => measureStreams({ address: server.address, bundleFile: writeBundleFile(join(stateDir, 'bench-stream-bundle.js'), bundle!) }));
    await part('fair', () => measureFairness({ address: server.address, bundleFile: writeBundleFile(join(stateDir, 'bench-fair-bundle.js'), bundle!) }));
    await part('quota', () => measureModelQuota({ address: server.address, bundleFile: writeBundleFile(join(stateDir, 'bench-quota-bundle.js'), bundle!) }));
    await part('p3', () =>
      measureParkedRuns({
        client,
        address: server.address,
        modelUrl: model.baseURL,
        taskQueue: 'bench-parked',
        count: PARKED,
        phaseTimeoutMs: PARKED_TIMEOUT_S * 1000,
        bundleFile: writeBundleFile(join(stateDir, 'bench-bundle.js'), bundle!),
      }),
    );
    await part('wait', () =>
      measureWaitingCalls({
        address: server.address,
        connection: native,
        modelUrl: model.baseURL,
        bundle: bundle!,
        serverPid: server.pid,
        counts: waitingCounts(process.argv, process.env.BENCH_WAITING),
        phaseTimeoutMs: PARKED_TIMEOUT_S * 1000 * 3,
      }),
    );
    await part('model', () => measureRealModels((process.env.BENCH_MODELS ?? '0.5b,1.5b').split(',').map((size) => size.trim())));
    await part('evals', () => measureModelEvals((process.env.BENCH_EVAL_MODELS ?? '0.5b,1.5b,gemma-270m').split(',').map((size) => size.trim()), setting('BENCH_EVAL_REPEAT', 5), server.address, evalModes(process.env.BENCH_EVAL_MODES)));
    await part('policy', () =>
      measurePolicies({ connection: native, address: server.address, modelUrl: model.baseURL, bundle: bundle!, rounds: setting('BENCH_POLICY_ROUNDS', 40), checks: setting('BENCH_POLICY_CHECKS', 2000) }),
    );
    await part('remind', () =>
      measureReminders({
        modelUrl: model.baseURL,
        bundleFile: writeBundleFile(join(stateDir, 'bench-remind-bundle.js'), bundle!),
        runs: setting('BENCH_REMIND_RUNS', 1000),
        timeoutMs: PARKED_TIMEOUT_S * 1000,
      }),
    );
    await part('nexus', () =>
      measureNexus({
        cliPath,
        address: server.address,
        connection: native,
        modelUrl: model.baseURL,
        bundleFile: writeBundleFile(join(stateDir, 'bench-nexus-bundle.js'), bundle!),
        warmup: WARMUP,
        rounds: Math.min(ROUNDS, 20),
      }),
    );
    await part('schedule', () =>
      measureSchedules({ connection: native, address: server.address, modelUrl: model.baseURL, bundle: bundle!, fires: setting('BENCH_SCHEDULE_FIRES', 100) }),
    );
    printSummary(rows);
    await native.close();
  } finally {
    await model.close();
    await server.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
