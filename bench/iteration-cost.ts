import { loadavg } from 'node:os';
import type { Client } from '@temporalio/client';
import type { AgentRunResult } from '../src/common/run';
import { agentInput, agentStartAttributes } from './agent-start';
import { iterationsLoop } from './hand-written-loop';
import { loadAverage } from './load-average';
import { cpuAround } from './process-cpu';
import { median } from './stats';
import { WORKER_CPU_TARGET } from './one-iteration';
import type { SummaryRow } from './summary';

/** One iteration (a model call and a tool call) against the hand-written loop's. */
const ITERATION_TARGET = 1.15;
/** The longer run of each pair: its iterations past the first are what an iteration costs. */
const ITERATIONS = 5;

/**
 * What one iteration of the loop costs, apart from what a run costs once (its start, the agent's
 * description, its end): a run of ITERATIONS iterations less a run of one model call, per iteration,
 * for the loop agent and for the hand-written loop making the same calls. Paired per round, so
 * both runs of a pair see the same machine state; the four kinds alternate.
 */
export async function measureIterationCost(options: { client: Client; taskQueue: string; warmup: number; rounds: number; serverPid: number }): Promise<SummaryRow[]> {
  const { client, taskQueue } = options;
  let n = 0;
  const agent = (iterations: number) => async () => {
    const result: AgentRunResult = await client.workflow.execute('agentWorkflow', {
      taskQueue,
      workflowId: `iteration-agent-${n++}`,
      args: [agentInput('loop', String(iterations), { maxIters: iterations })],
      ...agentStartAttributes('loop'),
    });
    if (result.iterations !== iterations || result.output !== 'done') throw new Error(`unexpected loop agent result: ${result.iterations} iterations, '${result.output}'`);
  };
  const loop = (iterations: number) => async () => {
    const output = await client.workflow.execute('handWrittenLoopWorkflow', { taskQueue, workflowId: `iteration-loop-${n++}`, args: [iterationsLoop(iterations)] });
    if (output !== 'done') throw new Error(`unexpected hand-written loop result: '${output}'`);
  };
  const kinds = { agentOne: agent(1), agentMany: agent(ITERATIONS), loopOne: loop(1), loopMany: loop(ITERATIONS) };
  type Kind = keyof typeof kinds;
  const timed = async (kind: Kind) => {
    const began = performance.now();
    const { workerMs } = await cpuAround(options.serverPid, kinds[kind]);
    return { ms: performance.now() - began, workerMs };
  };
  for (let i = 0; i < options.warmup; i++) for (const kind of Object.keys(kinds) as Kind[]) await timed(kind);
  const perIteration = { agent: [] as number[], loop: [] as number[] };
  const cpu = { agent: 0, loop: 0 };
  const one = { agent: [] as number[], loop: [] as number[] };
  for (let round = 0; round < options.rounds; round++) {
    for (const side of ['loop', 'agent'] as const) {
      const first = await timed(side === 'agent' ? 'agentOne' : 'loopOne');
      const many = await timed(side === 'agent' ? 'agentMany' : 'loopMany');
      one[side].push(first.ms);
      perIteration[side].push((many.ms - first.ms) / (ITERATIONS - 1));
      cpu[side] += (many.workerMs - first.workerMs) / (ITERATIONS - 1);
    }
  }
  const agentMs = median(perIteration.agent);
  const loopMs = median(perIteration.loop);
  const ratio = agentMs / loopMs;
  const cpuRatio = cpu.agent / cpu.loop;
  const startMs = median(one.agent) - median(one.loop);
  console.log(`\nP1 what an iteration costs: runs of ${ITERATIONS} iterations less runs of one model call, ${options.rounds} paired rounds (after ${options.warmup} warm-up)`);
  console.log(`per iteration (a model call and a tool call): agent ${agentMs.toFixed(1)} ms, hand-written loop ${loopMs.toFixed(1)} ms, ratio ${ratio.toFixed(2)} (target ≤ ${ITERATION_TARGET}); worker CPU ${cpuRatio.toFixed(2)} (target ≤ ${WORKER_CPU_TARGET})`);
  console.log(`a run of one model call: agent ${median(one.agent).toFixed(1)} ms, hand-written loop ${median(one.loop).toFixed(1)} ms: ${startMs.toFixed(1)} ms more, once a run; ${loadAverage()}`);
  const load = loadavg()[0];
  return [
    {
      part: 'P1',
      figure: `one iteration / hand-written loop's (${ITERATIONS}-iteration run less a one-call run, per iteration, median)`,
      value: `${ratio.toFixed(2)} (${agentMs.toFixed(1)} vs ${loopMs.toFixed(1)} ms)`,
      target: `≤ ${ITERATION_TARGET}`,
      met: ratio <= ITERATION_TARGET,
      load,
    },
    { part: 'P1', figure: "worker CPU per iteration / hand-written loop's (the same difference)", value: cpuRatio.toFixed(2), target: `≤ ${WORKER_CPU_TARGET}`, met: cpuRatio <= WORKER_CPU_TARGET, load },
    { part: 'P1', figure: 'a run of one model call, agent less hand-written loop (once a run: start, description, end)', value: `${startMs.toFixed(1)} ms`, target: '', load },
  ];
}
