// `npm run bench -- --cluster` (or BENCH_CLUSTER=1): the figures of a Temporal cluster on
// PostgreSQL with every service a process of its own (scripts/cluster.cjs), and the throughput of
// agent runs with 1, 2 and 3 worker processes on it.
//
// Environment (all optional):
//   TEMPORAL_CLUSTER_DIR      a running cluster's folder (npm run cluster) instead of one of its own
//   BENCH_CLUSTER_WORKERS     worker process counts to measure (1,2,3)
//   BENCH_CLUSTER_RUNS        runs started at once per batch (50)
//   BENCH_CLUSTER_ROUNDS      batches per worker count (3)
//   BENCH_CLUSTER_SEQUENTIAL  runs one after another for the latency figure (10)
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { startCluster, stopCluster, type ClusterState } from '../scripts/cluster/cluster.cjs';
import { bundleBenchWorkflows } from './bench-worker';
import { childPid } from './cluster-cpu';
import { ITERATIONS, measureSequentialRun, measureWorkerCount, type ClusterBenchTarget, type WorkerCountResult } from './cluster-throughput';
import { loadAverage } from './load-average';
import { startModelServerProcess } from './model-server-process';
import { printSummary, type SummaryRow } from './summary';

const DYNAMIC_CONFIG = join(__dirname, '..', 'config', 'temporal-cluster-dynamic.yaml');
const OWN_PORT_OFFSET = 21000;
const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export function wantsClusterBench(): boolean {
  return process.argv.includes('--cluster') || process.env.BENCH_CLUSTER === '1';
}

/** The dynamic config keys in force (the file's top-level keys). */
function dynamicKeys(): string[] {
  return readFileSync(DYNAMIC_CONFIG, 'utf8')
    .split('\n')
    .filter((line) => /^[a-zA-Z][\w.]*:/.test(line))
    .map((line) => line.split(':')[0]!);
}

function describe(result: WorkerCountResult): string {
  const cpu = Object.entries(result.cpuMsPerRun).map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join(', ');
  const total = Object.values(result.cpuMsPerRun).reduce((sum, ms) => sum + ms, 0);
  return `${result.workers} worker process${result.workers > 1 ? 'es' : ''}: ${result.runsPerSecond.toFixed(1)} runs/s; CPU per run ${total.toFixed(0)} ms (${cpu}); ${result.busyCores.toFixed(2)} of 2 cores busy`;
}

async function ownOrRunningCluster(dir: string): Promise<{ state: ClusterState; stop(): Promise<void> }> {
  const running = process.env.TEMPORAL_CLUSTER_DIR;
  if (running) return { state: JSON.parse(readFileSync(join(running, 'state.json'), 'utf8')) as ClusterState, stop: async () => undefined };
  const state = await startCluster({ dir, offset: OWN_PORT_OFFSET, log: (line) => console.log(`  ${line}`) });
  return { state, stop: async () => void (await stopCluster({ dir })) };
}

export async function runClusterBench(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const workerCounts = (process.env.BENCH_CLUSTER_WORKERS ?? '1,2,3').split(',').map(Number);
  const runs = setting('BENCH_CLUSTER_RUNS', 50);
  const rounds = setting('BENCH_CLUSTER_ROUNDS', 3);
  const sequential = setting('BENCH_CLUSTER_SEQUENTIAL', 10);
  const dir = mkdtempSync(join(tmpdir(), 'durable-agent-bench-cluster-'));
  // PostgreSQL's own user (not root) must be able to enter the cluster's folder inside it.
  chmodSync(dir, 0o755);
  console.log(`durable-agent bench --cluster; node ${process.version}; ${loadAverage()}`);
  const cluster = await ownOrRunningCluster(join(dir, 'cluster'));
  const model = await startModelServerProcess();
  const connection = await Connection.connect({ address: cluster.state.address });
  try {
    const { processes } = cluster.state;
    const services = Object.keys(processes).filter((name) => name !== 'postgres');
    console.log(
      `cluster: Temporal ${cluster.state.serverVersion} at ${cluster.state.address}, ${cluster.state.shards} history shards; ` +
        `${services.join(', ')} and PostgreSQL, each a process; dynamic config ${dynamicKeys().join(', ')}`,
    );
    const bundleFile = join(dir, 'bench-bundle.js');
    writeFileSync(bundleFile, (await bundleBenchWorkflows()).code);
    const target: ClusterBenchTarget = {
      client: new Client({ connection }),
      address: cluster.state.address,
      modelUrl: model.baseURL,
      bundleFile,
      serverPids: services.map((name) => processes[name]!.pid),
      postgresPid: processes.postgres!.pid,
      modelPid: childPid('model-server-child') ?? 0,
    };
    const rows: SummaryRow[] = [];
    const latencyMs = await measureSequentialRun(target, sequential);
    console.log(`\none ${ITERATIONS}-iteration run at a time (${ITERATIONS} model calls, ${ITERATIONS - 1} no-op tool calls), 1 worker: median ${latencyMs.toFixed(0)} ms over ${sequential} runs`);
    rows.push({ part: 'cluster', figure: `${ITERATIONS}-iteration run, one at a time (ms)`, value: latencyMs.toFixed(0), target: '', load: loadavg()[0]! });

    console.log(`\nthroughput: ${runs} ${ITERATIONS}-iteration runs started at once per batch, ${rounds} batches per worker count (medians; CPU in ms per run)`);
    const results: WorkerCountResult[] = [];
    for (const workers of workerCounts) {
      const result = await measureWorkerCount(target, workers, runs, rounds);
      results.push(result);
      console.log(`  ${describe(result)}; ${loadAverage()}`);
      rows.push({ part: 'cluster', figure: `runs/s with ${workers} worker process${workers > 1 ? 'es' : ''}`, value: result.runsPerSecond.toFixed(1), target: '', load: loadavg()[0]! });
    }
    const first = results[0]!;
    const last = results[results.length - 1]!;
    if (results.length > 1) {
      const scale = last.runsPerSecond / first.runsPerSecond;
      console.log(
        `scale-out ${last.workers} workers / ${first.workers}: ${scale.toFixed(2)}×; the server side (Temporal + PostgreSQL) spends ` +
          `${(last.cpuMsPerRun.temporal! + last.cpuMsPerRun.postgres!).toFixed(0)} ms of CPU per run, the workers ${last.cpuMsPerRun.workers!.toFixed(0)} ms`,
      );
      rows.push({ part: 'cluster', figure: `scale-out ${last.workers} workers / ${first.workers}`, value: `${scale.toFixed(2)}×`, target: '', load: loadavg()[0]! });
    }
    printSummary(rows);
  } finally {
    await connection.close();
    await model.close();
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
