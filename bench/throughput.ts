import { loadavg } from 'node:os';
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { AgentRunResult } from '../src/common/run';
import { loadAverage } from './load-average';
import { agentInput, agentStartAttributes } from './agent-start';
import { cpuAround } from './process-cpu';
import { median } from './stats';
import type { SummaryRow } from './summary';
import { iterationsLoop } from './hand-written-loop';

export interface ThroughputOptions {
  client: Client;
  taskQueue: string;
  /** Runs started at once in each batch. */
  runs: number;
  /** Batches of each kind, alternating. */
  rounds: number;
  /** Model calls of each agent run (the last one answers). */
  iterations: number;
  /** No-op activities of each floor run: as many as the agent run records (a model and a tool call per tool iteration, and the answer). */
  floorActivities: number;
  serverPid: number;
}

interface BatchResult {
  runsPerSecond: number;
  cpuMsPerRun: number;
  serverCpuMsPerRun: number;
}

let batchCount = 0;

/** Starts `runs` workflows at once and waits for all; CPU is this process's (worker, client and model server). */
async function batch(serverPid: number, runs: number, start: (workflowId: string) => Promise<WorkflowHandle>, check: (result: unknown) => void): Promise<BatchResult> {
  const prefix = `throughput-${batchCount++}`;
  const began = performance.now();
  const { value: results, workerMs, serverMs } = await cpuAround(serverPid, async () => {
    const handles = await Promise.all(Array.from({ length: runs }, (_, i) => start(`${prefix}-${i}`)));
    return Promise.all(handles.map((handle) => handle.result()));
  });
  const seconds = (performance.now() - began) / 1000;
  results.forEach(check);
  return { runsPerSecond: runs / seconds, cpuMsPerRun: workerMs / runs, serverCpuMsPerRun: serverMs / runs };
}

/**
 * P2: many agent runs of several iterations started at once against as many runs of the fair floor
 * (the hand-written loop of bench/floor-workflow.ts, the same model calls and tools) and of the hops'
 * floor (as many no-op activities), on the same worker and dev server, alternating the batches.
 */
export async function measureThroughput(options: ThroughputOptions): Promise<SummaryRow[]> {
  const { client, taskQueue, iterations } = options;
  const floor = (runs: number) =>
    batch(
      options.serverPid,
      runs,
      (workflowId) => client.workflow.start('floorActivitiesWorkflow', { taskQueue, workflowId, args: [options.floorActivities] }),
      () => undefined,
    );
  const loop = (runs: number) =>
    batch(
      options.serverPid,
      runs,
      (workflowId) => client.workflow.start('handWrittenLoopWorkflow', { taskQueue, workflowId, args: [iterationsLoop(iterations)] }),
      (result) => {
        if (result !== 'done') throw new Error(`unexpected hand-written loop result: ${String(result)}`);
      },
    );
  const agent = (runs: number) =>
    batch(
      options.serverPid,
      runs,
      (workflowId) =>
        client.workflow.start('agentWorkflow', {
          taskQueue,
          workflowId,
          args: [agentInput('loop', String(iterations), { maxIters: iterations })],
          ...agentStartAttributes('loop'),
        }),
      (result) => {
        const run = result as AgentRunResult;
        if (run.status !== 'completed' || run.iterations !== iterations) throw new Error(`unexpected loop result: ${run.status}, ${run.iterations} iterations`);
      },
    );

  await floor(Math.min(10, options.runs));
  await loop(Math.min(10, options.runs));
  await agent(Math.min(10, options.runs));
  const floors: BatchResult[] = [];
  const loops: BatchResult[] = [];
  const agents: BatchResult[] = [];
  console.log(
    `\nP2 throughput: ${options.runs} runs started at once per batch, ${options.rounds} batches each, alternating (after one small warm-up batch each)`,
  );
  for (let i = 0; i < options.rounds; i++) {
    floors.push(await floor(options.runs));
    loops.push(await loop(options.runs));
    agents.push(await agent(options.runs));
    const [f, l, a] = [floors[i]!, loops[i]!, agents[i]!];
    const shown = (r: BatchResult) => `${r.runsPerSecond.toFixed(1)} runs/s (CPU/run: worker ${r.cpuMsPerRun.toFixed(1)} ms, server ${r.serverCpuMsPerRun.toFixed(1)} ms)`;
    console.log(`  round ${i + 1}: no-op floor ${shown(f)}, hand-written loop ${shown(l)}, agent ${shown(a)}`);
  }
  const floorRate = median(floors.map((f) => f.runsPerSecond));
  const loopRate = median(loops.map((l) => l.runsPerSecond));
  const agentRate = median(agents.map((a) => a.runsPerSecond));
  const ratio = agentRate / loopRate;
  const hopsRatio = agentRate / floorRate;
  const cpuOf = (results: BatchResult[]) => `worker ${median(results.map((r) => r.cpuMsPerRun)).toFixed(1)} ms, server ${median(results.map((r) => r.serverCpuMsPerRun)).toFixed(1)} ms per run`;
  console.log(`(a) hops' floor, ${options.floorActivities} no-op activities: median ${floorRate.toFixed(1)} runs/s, CPU ${cpuOf(floors)}`);
  console.log(`(d) fair floor, hand-written loop, the same calls: median ${loopRate.toFixed(1)} runs/s, CPU ${cpuOf(loops)}`);
  console.log(`(b) agent, ${iterations} model calls (${iterations - 1} tool calls): median ${agentRate.toFixed(1)} runs/s, CPU ${cpuOf(agents)}`);
  console.log(`ratio b/d (runs/s): ${ratio.toFixed(2)}  (target ≥ 0.8); b/a: ${hopsRatio.toFixed(2)}; ${loadAverage()}`);
  const load = loadavg()[0];
  return [
    { part: 'P2', figure: `agent runs/s / hand-written loop runs/s (${options.runs} at once)`, value: ratio.toFixed(2), target: '≥ 0.8', met: ratio >= 0.8, load },
    { part: 'P2', figure: `agent runs/s / no-op floor runs/s (${options.runs} at once)`, value: hopsRatio.toFixed(2), target: '', load },
  ];
}
