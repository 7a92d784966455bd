import { loadavg } from 'node:os';
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { AgentRunResult } from '../src/common/run';
import { loadAverage } from './load-average';
import { agentInput, agentStartAttributes } from './agent-start';
import { cpuAround } from './process-cpu';
import { median } from './stats';
import type { SummaryRow } from './summary';

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
 * P2: many agent runs of several iterations started at once against as many floor workflows of
 * about as many no-op activities, on the same worker and dev server, alternating the batches.
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
  await agent(Math.min(10, options.runs));
  const floors: BatchResult[] = [];
  const agents: BatchResult[] = [];
  console.log(
    `\nP2 throughput: ${options.runs} runs started at once per batch, ${options.rounds} batches each, alternating (after one small warm-up batch each)`,
  );
  for (let i = 0; i < options.rounds; i++) {
    floors.push(await floor(options.runs));
    agents.push(await agent(options.runs));
    const [f, a] = [floors[i], agents[i]];
    console.log(
      `  round ${i + 1}: floor ${f!.runsPerSecond.toFixed(1)} runs/s (CPU/run: worker ${f!.cpuMsPerRun.toFixed(1)} ms, server ${f!.serverCpuMsPerRun.toFixed(1)} ms), ` +
        `agent ${a!.runsPerSecond.toFixed(1)} runs/s (worker ${a!.cpuMsPerRun.toFixed(1)} ms, server ${a!.serverCpuMsPerRun.toFixed(1)} ms)`,
    );
  }
  const floorRate = median(floors.map((f) => f.runsPerSecond));
  const agentRate = median(agents.map((a) => a.runsPerSecond));
  const ratio = agentRate / floorRate;
  const cpuOf = (results: BatchResult[]) => `worker ${median(results.map((r) => r.cpuMsPerRun)).toFixed(1)} ms, server ${median(results.map((r) => r.serverCpuMsPerRun)).toFixed(1)} ms per run`;
  console.log(`(a) floor, ${options.floorActivities} no-op activities:  median ${floorRate.toFixed(1)} runs/s, CPU ${cpuOf(floors)}`);
  console.log(`(b) agent, ${iterations} model calls (${iterations - 1} tool calls): median ${agentRate.toFixed(1)} runs/s, CPU ${cpuOf(agents)}`);
  console.log(`ratio b/a (runs/s): ${ratio.toFixed(2)}  (target ≥ 0.8); ${loadAverage()}`);
  return [{ part: 'P2', figure: `agent runs/s / floor runs/s (${options.runs} at once)`, value: ratio.toFixed(2), target: '≥ 0.8', met: ratio >= 0.8, load: loadavg()[0] }];
}
