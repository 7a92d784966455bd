import { loadavg } from 'node:os';
import type { Client } from '@temporalio/client';
import type { AgentRunResult } from '../src/common/run';
import { atFloorCostPerHop, describeHops, medianHops } from './hop-breakdown';
import { loadAverage } from './load-average';
import { agentInput, agentStartAttributes } from './agent-start';
import { noopToolTime } from './bench-agents';
import type { ModelServerProcess } from './model-server-process';
import { cpuAround } from './process-cpu';
import { median, mib, percentile } from './stats';
import type { SummaryRow } from './summary';
import { oneIterationLoop } from './hand-written-loop';

/** Worker CPU against the hand-written loop's, per one-iteration run and per iteration (bench/iteration-cost.ts). */
export const WORKER_CPU_TARGET = 1.3;
/** Server CPU per iteration against the floor's. */
const SERVER_CPU_TARGET = 1.15;
/** The steps of a run of either kind (a model call or a tool batch; a no-op activity): model, tool, model. */
const STEPS = 3;

/**
 * P1: (b) a run of one agent iteration — the scripted model asks for a no-op tool, the tool runs, the model
 * answers — against (d) the fair floor, the same iteration as a hand-written Temporal loop
 * (bench/floor-workflow.ts: the model through the `openai` client, the tool as an activity, nothing
 * else), and against (a) the hops' floor, a bare workflow of three no-op activities (as many as an
 * iteration records, with no model request at all). Alternating, so all see the same machine state.
 * CPU of the bench process (which runs the worker) and of the server is summed per kind.
 */
export async function measureOneIteration(options: {
  client: Client;
  taskQueue: string;
  warmup: number;
  rounds: number;
  serverPid: number;
  /** An earlier release's agent workflow on a worker of its own task queue in this process: (c), compared with (b). */
  release?: { name: string; taskQueue: string };
  /** The model server, which reports its own time: taken out of (b)'s time for the per-step figures. */
  model?: ModelServerProcess;
}): Promise<SummaryRow[]> {
  const { client, taskQueue } = options;
  let n = 0;
  const floorIds: string[] = [];
  const agentIds: string[] = [];
  const loopIds: string[] = [];
  const floor = async () => {
    const t = performance.now();
    const workflowId = `floor-${n++}`;
    floorIds.push(workflowId);
    await client.workflow.execute('floorWorkflow', { taskQueue, workflowId, args: [] });
    return performance.now() - t;
  };
  const agentOn = (queue: string) => async () => {
    const t = performance.now();
    const workflowId = `agent-${n++}`;
    if (queue === taskQueue) agentIds.push(workflowId);
    const result: AgentRunResult = await client.workflow.execute('agentWorkflow', {
      taskQueue: queue,
      workflowId,
      args: [agentInput('bench', 'go')],
      ...agentStartAttributes('bench'),
    });
    if (result.output !== 'done') throw new Error('unexpected agent result');
    return performance.now() - t;
  };
  const loop = async () => {
    const t = performance.now();
    const workflowId = `loop-${n++}`;
    loopIds.push(workflowId);
    const output = await client.workflow.execute('handWrittenLoopWorkflow', { taskQueue, workflowId, args: [oneIterationLoop()] });
    if (output !== 'done') throw new Error('unexpected hand-written loop result');
    return performance.now() - t;
  };
  const agent = agentOn(taskQueue);
  const released = options.release ? agentOn(options.release.taskQueue) : undefined;

  for (let i = 0; i < options.warmup; i++) await Promise.all([floor(), loop(), agent(), ...(released ? [released()] : [])]);
  floorIds.length = 0;
  agentIds.length = 0;
  loopIds.length = 0;
  const a: number[] = [];
  const b: number[] = [];
  const c: number[] = [];
  const d: number[] = [];
  const cpu = { floor: { workerMs: 0, serverMs: 0 }, agent: { workerMs: 0, serverMs: 0 }, release: { workerMs: 0, serverMs: 0 }, loop: { workerMs: 0, serverMs: 0 } };
  const measured = async (kind: keyof typeof cpu, run: () => Promise<number>) => {
    const { value, workerMs, serverMs } = await cpuAround(options.serverPid, run);
    cpu[kind].workerMs += workerMs;
    cpu[kind].serverMs += serverMs;
    return value;
  };
  // The model server's and the tool's own time in each (b) and (d) run, read between runs (outside the timings).
  const outside: number[] = [];
  const loopOutside: number[] = [];
  const outsideOf = async (kind: 'agent' | 'loop', run: () => Promise<number>, times: number[], outsides: number[]) => {
    const served = await options.model?.served();
    const tool = noopToolTime.ms;
    times.push(await measured(kind, run));
    const after = served && (await options.model!.servedAtLeast(served.requests + 2));
    outsides.push((after && served ? after.ms - served.ms : 0) + noopToolTime.ms - tool);
  };
  for (let i = 0; i < options.rounds; i++) {
    a.push(await measured('floor', floor));
    await outsideOf('loop', loop, d, loopOutside);
    await outsideOf('agent', agent, b, outside);
    if (released) c.push(await measured('release', released));
  }
  const perRun = (ms: number) => ms / options.rounds;
  const workerRatio = cpu.agent.workerMs / cpu.loop.workerMs;
  const serverRatio = cpu.agent.serverMs / cpu.loop.serverMs;
  const hopsWorkerRatio = cpu.agent.workerMs / cpu.floor.workerMs;
  const hopsServerRatio = cpu.agent.serverMs / cpu.floor.serverMs;
  const rss = process.memoryUsage().rss;
  const ma = median(a);
  const mb = median(b);
  const md = median(d);
  console.log(`\nP1 a run of one iteration vs the floors: ${options.rounds} rounds each (after ${options.warmup} warm-up), alternating, one dev server, one worker`);
  console.log(`(a) hops' floor, 3 no-op activities: median ${ma.toFixed(1)} ms  (p90 ${percentile(a, 90).toFixed(1)} ms); CPU per run: worker ${perRun(cpu.floor.workerMs).toFixed(1)} ms, server ${perRun(cpu.floor.serverMs).toFixed(1)} ms`);
  console.log(`(d) fair floor, hand-written loop: median ${md.toFixed(1)} ms  (p90 ${percentile(d, 90).toFixed(1)} ms); CPU per run: worker ${perRun(cpu.loop.workerMs).toFixed(1)} ms, server ${perRun(cpu.loop.serverMs).toFixed(1)} ms`);
  console.log(`(b) a one-iteration agent run:     median ${mb.toFixed(1)} ms  (p90 ${percentile(b, 90).toFixed(1)} ms); CPU per run: worker ${perRun(cpu.agent.workerMs).toFixed(1)} ms, server ${perRun(cpu.agent.serverMs).toFixed(1)} ms`);
  console.log(`ratio b/d: ${(mb / md).toFixed(2)}; CPU b/d: worker ${workerRatio.toFixed(2)} (target ≤ ${WORKER_CPU_TARGET}), server ${serverRatio.toFixed(2)} (target ≤ ${SERVER_CPU_TARGET}); ${loadAverage()}`);
  console.log(`ratio b/a: ${(mb / ma).toFixed(2)}; CPU b/a: worker ${hopsWorkerRatio.toFixed(2)}, server ${hopsServerRatio.toFixed(2)}; d/a: ${(md / ma).toFixed(2)}, CPU worker ${(cpu.loop.workerMs / cpu.floor.workerMs).toFixed(2)} (the model request's own cost)`);
  // Orchestration per step: a run's time over its three steps, less (for the agent) the model server's and the tool's own time.
  const floorSteps = a.map((ms) => ms / STEPS);
  const agentSteps = b.map((ms, i) => (ms - outside[i]!) / STEPS);
  const loopSteps = d.map((ms, i) => (ms - loopOutside[i]!) / STEPS);
  const steps = (values: number[]) => ({ p50: median(values), p75: percentile(values, 75) });
  const floorStep = steps(floorSteps);
  const agentStep = steps(agentSteps);
  const loopStep = steps(loopSteps);
  const stepNote = options.model ? `less the model server's own time (median ${median(outside).toFixed(2)} ms a run, 2 requests) and the tool's` : 'the model server\'s time not taken out';
  console.log(
    `orchestration per step (${STEPS} a run): (a) p50 ${floorStep.p50.toFixed(1)} ms, p75 ${floorStep.p75.toFixed(1)} ms; (d) p50 ${loopStep.p50.toFixed(1)} ms, p75 ${loopStep.p75.toFixed(1)} ms; (b) p50 ${agentStep.p50.toFixed(1)} ms, p75 ${agentStep.p75.toFixed(1)} ms; (b) and (d) ${stepNote}`,
  );
  const releaseRows: SummaryRow[] = [];
  if (options.release) {
    const releaseRatio = cpu.agent.workerMs / cpu.release.workerMs;
    const mc = median(c);
    console.log(
      `(c) a one-iteration agent run, ${options.release.name}'s workflow code: median ${mc.toFixed(1)} ms; CPU per run: worker ${perRun(cpu.release.workerMs).toFixed(1)} ms, server ${perRun(cpu.release.serverMs).toFixed(1)} ms`,
    );
    console.log(`worker CPU per one-iteration run, this release / ${options.release.name}: ${releaseRatio.toFixed(2)}  (target ≤ 1.00 within noise); b/c (median): ${(mb / mc).toFixed(2)}`);
    releaseRows.push({
      part: 'P1',
      figure: `a run of one iteration / ${options.release.name}'s (median, same worker process, alternating)`,
      value: `${(mb / mc).toFixed(2)} (${mb.toFixed(1)} vs ${mc.toFixed(1)} ms)`,
      target: '',
      load: loadavg()[0],
    });
    releaseRows.push({
      part: 'P1',
      figure: `worker CPU per one-iteration run / ${options.release.name}'s (same worker process, alternating)`,
      value: `${releaseRatio.toFixed(2)} (${perRun(cpu.agent.workerMs).toFixed(1)} vs ${perRun(cpu.release.workerMs).toFixed(1)} ms)`,
      target: '≤ 1.00',
      met: releaseRatio <= 1.03,
      load: loadavg()[0],
    });
  }
  console.log(`worker process RSS: ${mib(rss)}`);
  // Where the time goes, from the runs' histories (medians per run).
  const floorHops = await medianHops(client, floorIds);
  const agentHops = await medianHops(client, agentIds);
  console.log(describeHops('(a) per floor run', floorHops));
  console.log(describeHops('(d) per hand-written loop run', await medianHops(client, loopIds)));
  console.log(describeHops('(b) per agent run', agentHops));
  const floorHistory = floorHops.workflowTaskDispatch + floorHops.workflowTaskRun + floorHops.activityDispatch + floorHops.activityRun + floorHops.other;
  const sameHops = atFloorCostPerHop(floorHops, agentHops);
  const hopsRatio = sameHops / floorHistory;
  console.log(
    `the agent's hops at the floor's cost per hop: ${sameHops.toFixed(1)} ms against the floor's ${floorHistory.toFixed(1)} ms in history, ratio ${hopsRatio.toFixed(2)}: ` +
      `the bound set by the hops alone (an iteration calls the model twice and the tool once)`,
  );
  const load = loadavg()[0];
  return [
    // The time target is an iteration's (bench/iteration-cost.ts): this run also starts, describes its agent and ends.
    { part: 'P1', figure: 'a run of one iteration / hand-written loop (median; start and description included)', value: `${(mb / md).toFixed(2)} (${mb.toFixed(1)} vs ${md.toFixed(1)} ms)`, target: '', load },
    { part: 'P1', figure: "worker CPU per one-iteration run / hand-written loop's", value: `${workerRatio.toFixed(2)} (${perRun(cpu.agent.workerMs).toFixed(1)} vs ${perRun(cpu.loop.workerMs).toFixed(1)} ms)`, target: `≤ ${WORKER_CPU_TARGET}`, met: workerRatio <= WORKER_CPU_TARGET, load },
    { part: 'P1', figure: "server CPU per one-iteration run / hand-written loop's", value: serverRatio.toFixed(2), target: `≤ ${SERVER_CPU_TARGET}`, met: serverRatio <= SERVER_CPU_TARGET, load },
    { part: 'P1', figure: 'a run of one iteration / 3 no-op activities (median)', value: (mb / ma).toFixed(2), target: '', load },
    { part: 'P1', figure: "worker / server CPU per one-iteration run / 3 no-op activities'", value: `${hopsWorkerRatio.toFixed(2)} / ${hopsServerRatio.toFixed(2)}`, target: '', load },
    { part: 'P1', figure: "the iteration's hops at the no-op floor's cost / that floor", value: hopsRatio.toFixed(2), target: '', load },
    {
      part: 'P1',
      figure: `orchestration per step (model call or tool batch), one iteration${options.model ? ", model server's and tool's own time out" : ", model server's time not out"}: p50, p75`,
      value: `${agentStep.p50.toFixed(1)} ms, ${agentStep.p75.toFixed(1)} ms (÷ hand-written loop's: ${(agentStep.p50 / loopStep.p50).toFixed(2)}, ${(agentStep.p75 / loopStep.p75).toFixed(2)})`,
      target: '',
      load,
    },
    { part: 'P1', figure: `orchestration per step, the hand-written loop (same time out): p50, p75`, value: `${loopStep.p50.toFixed(1)} ms, ${loopStep.p75.toFixed(1)} ms`, target: '', load },
    { part: 'P1', figure: `orchestration per step (one no-op activity), the 3-activity floor: p50, p75`, value: `${floorStep.p50.toFixed(1)} ms, ${floorStep.p75.toFixed(1)} ms`, target: '', load },
    ...releaseRows,
  ];
}
