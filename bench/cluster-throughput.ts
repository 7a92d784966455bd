import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import type { AgentRunResult } from '../src/common/run';
import { AGENT_NAME, AGENT_STATUS } from '../src/common/search-attributes';
import { cpuOfGroups, ownCpuMs, treeCpuMs } from './cluster-cpu';
import { median } from './stats';
import { agentInput } from './agent-start';

export interface ClusterBenchTarget {
  client: Client;
  address: string;
  modelUrl: string;
  bundleFile: string;
  /** The cluster's Temporal processes and PostgreSQL's postmaster. */
  serverPids: number[];
  postgresPid: number;
  modelPid: number;
}

export interface WorkerCountResult {
  workers: number;
  runsPerSecond: number;
  /** CPU per run, ms, by group: temporal, postgres, workers, model, client. */
  cpuMsPerRun: Record<string, number>;
  /** CPU seconds used per second of wall time, all groups together: 2.0 is both cores busy. */
  busyCores: number;
}

/** Iterations (model calls) of each run: the last one answers, the others call a no-op tool. */
export const ITERATIONS = 5;

async function startWorkers(target: ClusterBenchTarget, count: number, taskQueue: string): Promise<ChildProcess[]> {
  const script = join(__dirname, 'cluster-worker-child.ts');
  return Promise.all(
    Array.from({ length: count }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', script, target.address, target.modelUrl, taskQueue, target.bundleFile], { stdio: ['ignore', 'pipe', 'inherit'] });
      return new Promise<ChildProcess>((resolve, reject) => {
        child.stdout!.on('data', (data: Buffer) => String(data).includes('ready') && resolve(child));
        child.once('exit', (code) => reject(new Error(`a bench worker exited before it was ready (${code})`)));
      });
    }),
  );
}

function stopWorkers(workers: ChildProcess[]): Promise<unknown> {
  return Promise.all(workers.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : (child.once('exit', resolve), child.kill('SIGTERM'))))));
}

let batchCount = 0;

/** Starts `runs` agent runs at once, as AgentClient.start does, and waits for every answer. */
async function batch(client: Client, taskQueue: string, runs: number): Promise<number> {
  const prefix = `cluster-bench-${process.pid}-${batchCount++}`;
  const began = performance.now();
  const handles = await Promise.all(
    Array.from({ length: runs }, (_, i) =>
      client.workflow.start('agentWorkflow', {
        taskQueue,
        workflowId: `${prefix}-${i}`,
        args: [agentInput('loop', String(ITERATIONS), { maxIters: ITERATIONS })],
        typedSearchAttributes: [
          { key: AGENT_NAME, value: 'loop' },
          { key: AGENT_STATUS, value: 'running' },
        ],
      }),
    ),
  );
  for (const result of await Promise.all(handles.map((handle) => handle.result() as Promise<AgentRunResult>))) {
    if (result.status !== 'completed' || result.iterations !== ITERATIONS) throw new Error(`unexpected loop result: ${result.status}, ${result.iterations} iterations`);
  }
  return (performance.now() - began) / 1000;
}

/** Median wall time of `count` runs one after another on one worker: each step's dispatch latency, no queueing. */
export async function measureSequentialRun(target: ClusterBenchTarget, count: number): Promise<number> {
  const taskQueue = `cluster-bench-latency-${process.pid}`;
  const workers = await startWorkers(target, 1, taskQueue);
  try {
    await batch(target.client, taskQueue, 1);
    const times: number[] = [];
    for (let i = 0; i < count; i++) times.push(await batch(target.client, taskQueue, 1));
    return median(times) * 1000;
  } finally {
    await stopWorkers(workers);
  }
}

/** Throughput of batches of `runs` runs started at once on `workers` worker processes, and where the CPU went. */
export async function measureWorkerCount(target: ClusterBenchTarget, workers: number, runs: number, rounds: number): Promise<WorkerCountResult> {
  const taskQueue = `cluster-bench-${workers}-${process.pid}`;
  const children = await startWorkers(target, workers, taskQueue);
  try {
    await batch(target.client, taskQueue, Math.min(10, runs));
    const rates: number[] = [];
    const cpu: Array<Record<string, number>> = [];
    const busy: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const sum = (pids: number[]) => () => pids.reduce((total, pid) => total + ownCpuMs(pid), 0);
      const groups = {
        temporal: sum(target.serverPids),
        postgres: () => treeCpuMs(target.postgresPid),
        workers: sum(children.map((c) => c.pid!)),
        model: sum([target.modelPid]),
        client: () => {
          const { user, system } = process.cpuUsage();
          return (user + system) / 1000;
        },
      };
      const { value: seconds, ms } = await cpuOfGroups(groups, () => batch(target.client, taskQueue, runs));
      rates.push(runs / seconds);
      cpu.push(Object.fromEntries(Object.entries(ms).map(([name, value]) => [name, value / runs])));
      busy.push(Object.values(ms).reduce((sum, value) => sum + value, 0) / 1000 / seconds);
    }
    const cpuMsPerRun = Object.fromEntries(Object.keys(cpu[0]!).map((name) => [name, median(cpu.map((c) => c[name]!))]));
    return { workers, runsPerSecond: median(rates), cpuMsPerRun, busyCores: median(busy) };
  } finally {
    await stopWorkers(children);
  }
}
