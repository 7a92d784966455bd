// The loop part of `npm run bench`: the orchestration overhead of a streamed five-turn loop with
// tools, the figure a user compares with other engines. The scripted model (bench/model-scripts.ts,
// in its own process) asks for the no-op tool on each of five turns, then answers; each run is
// started with AgentClient.start and read through `run.stream()` until its `run_finished`, as an
// app shows a run. Overhead = wall time from before `start` to the final answer, less the model
// server's own time (it reports it: bench/model-server-child.ts) and the tool's.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { NativeConnection } from '@temporalio/worker';
import { AgentClient } from '../src/client/agent-client';
import type { AgentRun } from '../src/client/agent-run';
import type { AgentRunResult } from '../src/common/run';
import { createChatModel } from '../src/model/create-chat-model';
import { createWorker } from '../src/worker/create-worker';
import { BenchModels, noopToolTime, streamedLoopAgent } from './bench-agents';
import { loadAverage } from './load-average';
import type { ModelServerProcess } from './model-server-process';
import { median, percentile } from './stats';
import type { SummaryRow } from './summary';

const TASK_QUEUE = 'bench-loop';
/** Turns that ask for the tool; the model answers on the next one. */
const TOOL_TURNS = 5;
const MODEL_CALLS = TOOL_TURNS + 1;
/** One model call or one tool batch. */
const STEPS = MODEL_CALLS + TOOL_TURNS;
/** The streamed figure's target, in ms. */
const TARGET_MS = 500;

interface LoopSample {
  /** Start to the final answer, ms. */
  wallMs: number;
  /** The model server's own time on the run's requests, ms. */
  modelMs: number;
  /** The tool's own time, ms. */
  toolMs: number;
  /** Start to the last text delta of the answer (streamed runs), ms. */
  answerTextMs: number;
  /** Start to the run's close as the server recorded it, ms (whole ms): what the stream adds comes after. */
  closedMs: number;
}

const overheadOf = (sample: LoopSample) => sample.wallMs - sample.modelMs - sample.toolMs;

function checkResult(result: AgentRunResult | undefined, workflowId: string, status?: string): void {
  if (result?.status !== 'completed' || result.output !== 'done' || result.iterations !== MODEL_CALLS) {
    throw new Error(`loop run ${workflowId}: ${result ? `${result.status}, ${result.iterations} iterations, ${JSON.stringify(result.output)}` : `finished ${status} without a result`}`);
  }
}

/** Reads a run's stream until its `run_finished`: when that came, and when the answer's last text delta came. */
async function readUntilAnswer(run: AgentRun): Promise<{ finishedAt: number; lastTextAt: number; result: AgentRunResult | undefined; status: string }> {
  let lastTextAt = NaN;
  for await (const item of run.stream()) {
    if (item.depth !== 0) continue;
    if (item.type === 'text_delta') lastTextAt = performance.now();
    if (item.type === 'event' && item.event.type === 'run_finished') return { finishedAt: performance.now(), lastTextAt, result: item.result, status: item.event.status };
  }
  throw new Error(`loop run ${run.workflowId}: the stream ended without run_finished`);
}

/** BENCH_LOOP_TIMELINE=1: one more streamed run, each item's arrival after start (where the stream's time goes). */
async function printTimeline(client: AgentClient): Promise<void> {
  const began = performance.now();
  const run = await client.start(streamedLoopAgent, { prompt: String(MODEL_CALLS) });
  const at = (label: string) => `${label} ${(performance.now() - began).toFixed(0)}`;
  const items: string[] = [at('started')];
  for await (const item of run.stream()) {
    items.push(at(item.type === 'event' ? `${item.event.type}${'iteration' in item.event ? `#${item.event.iteration}` : ''}` : item.type));
    if (item.type === 'event' && item.event.type === 'run_finished') break;
  }
  const closeTime = (await run.handle.describe()).closeTime;
  console.log(`one streamed run, ms after start: ${items.join(', ')}; closed ${closeTime ? (closeTime.getTime() - (performance.timeOrigin + began)).toFixed(0) : '?'}`);
}

export async function measureStreamedLoop(options: {
  address: string;
  bundleFile: string;
  model: ModelServerProcess;
  runs: number;
  warmup: number;
}): Promise<SummaryRow[]> {
  const { model } = options;
  const connection = await NativeConnection.connect({ address: options.address });
  // The worker a user starts (createWorker: its live endpoint serves the streamed text), in this process.
  const worker = await createWorker({
    agents: [streamedLoopAgent],
    connection,
    config: { taskQueue: TASK_QUEUE, defaultModel: BenchModels.loop },
    model: createChatModel({ baseURL: model.baseURL, apiKey: 'bench', defaultModel: BenchModels.loop }),
    workflowBundle: { codePath: options.bundleFile },
    log: () => undefined,
  });
  const running = worker.run();
  const client = await AgentClient.connect({ address: options.address, taskQueue: TASK_QUEUE });

  /** One run, read through its stream (or, for comparison, awaited by `result()`). */
  const loop = async (streamed: boolean): Promise<LoopSample> => {
    const served = await model.served();
    const tool = { ...noopToolTime };
    const began = performance.now();
    const run = await client.start(streamedLoopAgent, { prompt: String(MODEL_CALLS) });
    let finishedAt: number;
    let lastTextAt = NaN;
    let result: AgentRunResult | undefined;
    let status = '';
    if (streamed) ({ finishedAt, lastTextAt, result, status } = await readUntilAnswer(run));
    else {
      result = (await run.result()) as AgentRunResult;
      finishedAt = performance.now();
    }
    checkResult(result, run.workflowId, status);
    const closeTime = (await run.handle.describe()).closeTime;
    const after = await model.servedAtLeast(served.requests + MODEL_CALLS);
    if (after.requests - served.requests !== MODEL_CALLS) throw new Error(`streamed loop: the model server served ${after.requests - served.requests} requests for a run of ${MODEL_CALLS} model calls`);
    if (noopToolTime.calls - tool.calls !== TOOL_TURNS) throw new Error(`streamed loop: the tool ran ${noopToolTime.calls - tool.calls} times in a run of ${TOOL_TURNS} tool turns`);
    return {
      wallMs: finishedAt - began,
      modelMs: after.ms - served.ms,
      toolMs: noopToolTime.ms - tool.ms,
      answerTextMs: lastTextAt - began,
      closedMs: closeTime ? closeTime.getTime() - (performance.timeOrigin + began) : NaN,
    };
  };

  try {
    for (let i = 0; i < options.warmup; i++) {
      await loop(true);
      await loop(false);
    }
    // Alternating, so both see the same machine state; the awaited runs show the stream's own share.
    const streamed: LoopSample[] = [];
    const awaited: LoopSample[] = [];
    for (let i = 0; i < options.runs; i++) {
      streamed.push(await loop(true));
      awaited.push(await loop(false));
    }
    if (process.env.BENCH_LOOP_TIMELINE) await printTimeline(client);
    const load = loadavg()[0]!;
    const overhead = streamed.map(overheadOf);
    const awaitedOverhead = awaited.map(overheadOf);
    const ms = (value: number) => `${value.toFixed(0)} ms`;
    const p50 = median(overhead);
    const p75 = percentile(overhead, 75);
    const modelMs = median(streamed.map((s) => s.modelMs));
    const toolMs = median(streamed.map((s) => s.toolMs));
    const answerText = streamed.map((s) => s.answerTextMs).filter(Number.isFinite);
    console.log(`\nloop: a streamed five-turn loop with tools, ${options.runs} runs (after ${options.warmup} warm-up), alternating with the same run awaited by result()`);
    console.log(
      `streamed, start to run_finished: wall median ${ms(median(streamed.map((s) => s.wallMs)))}, p75 ${ms(percentile(streamed.map((s) => s.wallMs), 75))}; ` +
        `model server's own time median ${modelMs.toFixed(2)} ms a run (${MODEL_CALLS} requests), the tool's ${toolMs.toFixed(3)} ms (${TOOL_TURNS} calls)`,
    );
    console.log(`overhead: median ${ms(p50)}, p75 ${ms(p75)}, p90 ${ms(percentile(overhead, 90))}; per step (${STEPS}): ${(p50 / STEPS).toFixed(1)} ms, ${(p75 / STEPS).toFixed(1)} ms`);
    if (answerText.length > 0) console.log(`the answer's last text delta at the reader: median ${ms(median(answerText))} after start (${answerText.length} of ${streamed.length} runs streamed text)`);
    console.log(`awaited by result() instead: overhead median ${ms(median(awaitedOverhead))}, p75 ${ms(percentile(awaitedOverhead, 75))}`);
    const closed = (samples: LoopSample[]) => median(samples.map((s) => s.closedMs).filter(Number.isFinite));
    const after = (samples: LoopSample[]) => median(samples.map((s) => s.wallMs - s.closedMs).filter(Number.isFinite));
    console.log(
      `the run closed (the server's close time) median ${ms(closed(streamed))} after start when streamed, ${ms(closed(awaited))} when awaited; ` +
        `the reader had the answer ${ms(after(streamed))} / ${ms(after(awaited))} after the close; ${loadAverage()}`,
    );
    return [
      {
        part: 'loop',
        figure: `streamed 5-turn loop with tools, start to final answer via run.stream(), less the model server's and tool's own time: median, p75 of ${overhead.length}`,
        value: `${ms(p50)}, ${ms(p75)} (${(p50 / STEPS).toFixed(1)}, ${(p75 / STEPS).toFixed(1)} ms a step of ${STEPS}; model server ${modelMs.toFixed(1)} ms, tool ${toolMs.toFixed(2)} ms a run)`,
        target: `≤ ${TARGET_MS / 1000} s`,
        met: p50 <= TARGET_MS,
        load,
      },
      {
        part: 'loop',
        figure: `the same loop awaited by result() instead (alternating): median, p75 of ${awaitedOverhead.length}`,
        value: `${ms(median(awaitedOverhead))}, ${ms(percentile(awaitedOverhead, 75))}`,
        target: '',
        load,
      },
    ];
  } finally {
    await client.close();
    worker.shutdown();
    await running;
    await connection.close();
  }
}
