import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import type { AgentRunResult } from '../src/common/run';
import { BenchModels } from './bench-agents';
import { ensureCompiledPackage } from './compiled-package';
import { withDeadline } from './deadline';
import { loadAverage } from './load-average';
import { mapLimit } from './map-limit';
import { requestFromChild } from './parked-worker-messages';
import { mib } from './stats';
import type { SummaryRow } from './summary';
import type { HeapReading } from './thread-heaps.cjs';
import { agentInput } from './agent-start';

export interface ParkedOptions {
  client: Client;
  address: string;
  modelUrl: string;
  taskQueue: string;
  /** Runs parked at once, and fresh runs to compare the resume with. */
  count: number;
  /** Longest wait for each phase (parking, resuming, fresh runs). */
  phaseTimeoutMs: number;
  /** The benchmark's prebuilt workflow bundle (agent and floor workflows), as a file. */
  bundleFile: string;
}

const CHILD = join(__dirname, 'parked-worker-child.cjs');
const PROBE = join(__dirname, 'thread-heaps.cjs');
/** Start, signal and result calls in flight at once. */
const IN_FLIGHT = 50;
const WARMUP_RUNS = 20;
const TARGET_RESUME_RATIO = 2;
const TARGET_GROWTH_BYTES = 30 * 1024 * 1024;
const TARGET_REST_BYTES = 80 * 1024 * 1024;
const TARGET_PARKED_RATIO = 1.1;

function startWorkerProcess(options: ParkedOptions): ChildProcess {
  return fork(CHILD, [], {
    execArgv: ['--expose-gc', '--require', PROBE],
    env: {
      ...process.env,
      BENCH_PARKED_DIST: ensureCompiledPackage(),
      BENCH_PARKED_BUNDLE: options.bundleFile,
      BENCH_PARKED_MODEL: BenchModels.oneCall,
      BENCH_PARKED_ADDRESS: options.address,
      BENCH_PARKED_MODEL_URL: options.modelUrl,
      BENCH_PARKED_TASK_QUEUE: options.taskQueue,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function describeHeap(reading: HeapReading): string {
  return `${mib(reading.total)} (main thread ${mib(reading.main)}, workflow thread${reading.threads.length === 1 ? '' : 's'} ${reading.threads.map(mib).join(' + ')})`;
}

async function waitForParked(child: ChildProcess, counter: 'waiting' | 'bareWaiting', count: number): Promise<void> {
  for (;;) {
    const { count: waiting } = await requestFromChild(child, counter);
    if (waiting >= count) return;
    await sleep(250);
  }
}

/** Visibility lags the worker's counter: poll it briefly, for a cross-check. */
async function visibleParked(client: Client, taskQueue: string, count: number): Promise<string> {
  const query = `TaskQueue = "${taskQueue}" AND AgentStatus = "awaiting_approval"`;
  try {
    let seen = 0;
    for (let i = 0; i < 40 && seen < count; i++) {
      if (i > 0) await sleep(500);
      seen = (await client.workflow.count(query)).count;
    }
    return String(seen);
  } catch (error) {
    return `unavailable (${(error as Error).message.split('\n')[0]})`;
  }
}

/**
 * P3: worker heap (after forced GC, every thread) with many runs parked on an approval, then the
 * time to finish them all once approved against the time of as many fresh runs of an agent doing
 * the same work without the approval. The worker runs in its own process.
 */
export async function measureParkedRuns(options: ParkedOptions): Promise<SummaryRow[]> {
  const { client, taskQueue, count } = options;
  const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
  const start = (agent: string) => (workflowId: string) =>
    client.workflow.start('agentWorkflow', { taskQueue, workflowId, args: [agentInput(agent, 'go')] });
  const finish = async (workflowIds: string[]) => {
    const results = await mapLimit(workflowIds, IN_FLIGHT, (id) => client.workflow.getHandle(id).result() as Promise<AgentRunResult>);
    const wrong = results.find((result) => result.status !== 'completed' || result.output !== 'done');
    if (wrong) throw new Error(`unexpected result: ${wrong.status} '${wrong.output}'`);
  };
  const fresh = async (prefix: string, n: number) => {
    const began = performance.now();
    const workflowIds = ids(prefix, n);
    await mapLimit(workflowIds, IN_FLIGHT, start('bench'));
    await withDeadline(finish(workflowIds), options.phaseTimeoutMs, `${n} fresh runs`);
    return performance.now() - began;
  };

  const child = startWorkerProcess(options);
  const exited = once(child, 'exit');
  try {
    const ready = await withDeadline(requestFromChild(child, 'ready'), 120_000, 'the P3 worker start');
    await fresh('parked-warmup', WARMUP_RUNS);
    const before = (await requestFromChild(child, 'heap')).reading;

    const parkBegan = performance.now();
    const parkedIds = ids('parked', count);
    await mapLimit(parkedIds, IN_FLIGHT, start('parked'));
    await withDeadline(waitForParked(child, 'waiting', count), options.phaseTimeoutMs, `parking ${count} runs`);
    const parkMs = performance.now() - parkBegan;
    const visible = await visibleParked(client, taskQueue, count);
    const parked = (await requestFromChild(child, 'heap')).reading;
    const parkedLoad = loadAverage();

    const resumeBegan = performance.now();
    await mapLimit(parkedIds, IN_FLIGHT, (id) => client.workflow.getHandle(id).signal('approveAll', {}));
    await withDeadline(finish(parkedIds), options.phaseTimeoutMs, `resuming ${count} runs`);
    const resumeMs = performance.now() - resumeBegan;
    const stillWaiting = (await requestFromChild(child, 'waiting')).count;
    const resumed = (await requestFromChild(child, 'heap')).reading;

    const freshMs = await fresh('fresh', count);
    const ratio = resumeMs / freshMs;
    const growth = parked.total - before.total;

    // The same number of bare workflows waiting for a signal, on the same worker: the floor of a parked run.
    const bareIds = ids('bare', count);
    const bareBefore = (await requestFromChild(child, 'heap')).reading;
    await mapLimit(bareIds, IN_FLIGHT, (workflowId) => client.workflow.start('waitingFloorWorkflow', { taskQueue, workflowId }));
    await withDeadline(waitForParked(child, 'bareWaiting', count), options.phaseTimeoutMs, `parking ${count} bare workflows`);
    const bareParked = (await requestFromChild(child, 'heap')).reading;
    await mapLimit(bareIds, IN_FLIGHT, (id) => client.workflow.getHandle(id).signal('release'));
    await withDeadline(mapLimit(bareIds, IN_FLIGHT, (id) => client.workflow.getHandle(id).result()), options.phaseTimeoutMs, `releasing ${count} bare workflows`);
    const bareGrowth = bareParked.total - bareBefore.total;
    // The runs live in the workflow thread; the main thread's heap moves by a few MiB between readings for reasons of its own.
    const threadsOf = (reading: HeapReading) => reading.threads.reduce((sum, bytes) => sum + bytes, 0);
    const threadGrowth = threadsOf(parked) - threadsOf(before);
    const bareThreadGrowth = threadsOf(bareParked) - threadsOf(bareBefore);
    const threadRatio = threadGrowth / bareThreadGrowth;
    // At rest: every run finished, nothing parked, the warm-up's and the phases' transient state collected.
    const atRest = (await requestFromChild(child, 'heap')).reading;
    const parkedRatio = growth / bareGrowth;

    console.log(`\nP3 parked runs: ${count} runs waiting for approval on one worker in its own process (BENCH_PARKED=${count})`);
    console.log(`  worker maxCachedWorkflows: ${ready.maxCachedWorkflows}${process.env.BENCH_PARKED_MAX_CACHED ? ' (set by BENCH_PARKED_MAX_CACHED)' : ' (the worker default, AGENT_MAX_CACHED_RUNS)'}, ${ready.workflowThreads} workflow thread(s)`);
    console.log(`  parking took ${(parkMs / 1000).toFixed(1)} s; the worker's counter saw ${count} waiting, visibility counts ${visible} with AgentStatus awaiting_approval`);
    console.log(`  heap after forced GC, after ${WARMUP_RUNS} warm-up runs (compiled package, prebuilt bundle): ${describeHeap(before)}`);
    console.log(`  heap after forced GC, parked:  ${describeHeap(parked)}; ${parkedLoad}`);
    console.log(`  growth: ${mib(growth)} total, ${(growth / count / 1024).toFixed(1)} KiB per parked run`);
    console.log(`  heap after forced GC, resumed: ${describeHeap(resumed)}; still waiting per the counter: ${stillWaiting}`);
    console.log(`  approve all (approveAll signal) → all finished: ${(resumeMs / 1000).toFixed(1)} s; ${count} fresh runs of the same work without approval: ${(freshMs / 1000).toFixed(1)} s`);
    console.log(`ratio resume/fresh: ${ratio.toFixed(2)}  (target ≤ ${TARGET_RESUME_RATIO}); ${loadAverage()}`);
    console.log(`  ${count} bare workflows waiting for a signal on the same worker: heap ${describeHeap(bareBefore)} → ${describeHeap(bareParked)}`);
    console.log(`  growth: ${mib(bareGrowth)}, ${(bareGrowth / count / 1024).toFixed(1)} KiB per waiting workflow`);
    console.log(`ratio parked run / bare waiting workflow (heap growth, every thread): ${parkedRatio.toFixed(2)}`);
    console.log(
      `ratio parked run / bare waiting workflow (workflow thread, where the runs live): ${threadRatio.toFixed(2)}  ` +
        `(${(threadGrowth / count / 1024).toFixed(1)} vs ${(bareThreadGrowth / count / 1024).toFixed(1)} KiB; target ≤ ${TARGET_PARKED_RATIO})`,
    );
    console.log(`worker heap at rest, every run finished: ${describeHeap(atRest)}  (target ≤ ${mib(TARGET_REST_BYTES)})`);
    const load = loadavg()[0];
    return [
      { part: 'P3', figure: 'worker heap at rest (every thread, after forced GC)', value: mib(atRest.total), target: `≤ ${mib(TARGET_REST_BYTES)}`, met: atRest.total <= TARGET_REST_BYTES, load },
      {
        part: 'P3',
        figure: `workflow-thread heap per parked run ÷ per bare waiting workflow (${count} each)`,
        value: `${threadRatio.toFixed(2)} (${(threadGrowth / count / 1024).toFixed(1)} vs ${(bareThreadGrowth / count / 1024).toFixed(1)} KiB)`,
        target: `≤ ${TARGET_PARKED_RATIO}`,
        met: threadRatio <= TARGET_PARKED_RATIO,
        load,
      },
      { part: 'P3', figure: `worker heap growth, ${count} parked`, value: mib(growth), target: `≤ ${mib(TARGET_GROWTH_BYTES)}`, met: growth <= TARGET_GROWTH_BYTES, load },
      { part: 'P3', figure: `resume ${count} approved / ${count} fresh`, value: ratio.toFixed(2), target: `≤ ${TARGET_RESUME_RATIO}`, met: ratio <= TARGET_RESUME_RATIO, load },
    ];
  } finally {
    if (child.exitCode === null && child.connected) child.send({ type: 'stop' });
    await withDeadline(exited, 60_000, 'the P3 worker shutdown').catch(() => child.kill());
  }
}
