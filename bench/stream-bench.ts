// The stream part of `npm run bench`: how soon a subscriber sees the text a model writes, that a
// stream read with reconnects at random points (across continue-as-new and a SIGKILLed worker)
// loses and repeats nothing, and that streaming adds nothing to a run's history.
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { NativeConnection } from '@temporalio/worker';
import { AgentClient } from '../src/client/agent-client';
import type { AgentRun } from '../src/client/agent-run';
import type { StreamItem } from '../src/client/stream/stream-items';
import { createChatModel } from '../src/model/create-chat-model';
import { startScriptedModelServer } from '../src/testing/scripted-model-server';
import type { ModelScript, ScriptedRequest } from '../src/testing/scripted-model-types';
import { createWorker } from '../src/worker/create-worker';
import { eventBytes } from './history-activities';
import { median, percentile } from './stats';
import { streamBenchAgents } from './stream-agents';
import type { SummaryRow } from './summary';

const TASK_QUEUE = 'bench-stream';
const LATENCY_CALLS = Number(process.env.BENCH_STREAM_CALLS ?? 50);
const RECONNECT_RUNS = 20;
const RECONNECTS = 100;
const ANSWER = 'The manual says the pump is primed by hand before the first start, then it keeps itself primed. '.repeat(3);

/** Pages to read before answering, from the prompt (`pages N`). */
const pagesOf = (request: ScriptedRequest) => Number(/pages (\d+)/.exec(String(request.messages[1]?.content ?? ''))?.[1] ?? 0);

const scripts: Record<string, ModelScript> = {
  'stream-bench': (request, info) => (info.turnIndex < pagesOf(request) ? { toolCalls: [{ name: 'read_page', arguments: { page: info.turnIndex + 1 } }] } : ANSWER),
  'stream-slow-start': () => ({ text: ANSWER, faults: [{ stallMs: 1_000, times: 1_000_000 }] }),
};

/** When the model server wrote each reply's first piece of text, by the order replies were asked for. */
class FirstTextClock {
  readonly sent: number[] = [];
  private inReply = false;
  onChunk(index: number, chunk: string): void {
    if (index === 0) this.inReply = true;
    if (!chunk.startsWith('{')) return;
    const content = (JSON.parse(chunk) as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta?.content;
    if (this.inReply && content) {
      this.sent.push(performance.now());
      this.inReply = false;
    }
  }
}

/** One run followed from its start; the time its first text delta arrived. */
async function firstDeltaAt(run: AgentRun): Promise<number> {
  let at = NaN;
  for await (const item of run.stream()) if (item.type === 'text_delta' && Number.isNaN(at)) at = performance.now();
  return at;
}

async function measureLatency(client: AgentClient, clock: FirstTextClock, agent: string): Promise<number[]> {
  const latencies: number[] = [];
  for (let call = 0; call < LATENCY_CALLS; call++) {
    const before = clock.sent.length;
    const run = await client.start(agent, { prompt: 'answer' });
    const received = await firstDeltaAt(run);
    const sent = clock.sent[before];
    if (sent !== undefined && Number.isFinite(received)) latencies.push(received - sent);
  }
  return latencies;
}

/** Reads a run's stream, dropping the connection after the given item counts and going on from the last cursor. */
async function readWithReconnects(run: AgentRun, breaks: number[]): Promise<StreamItem[]> {
  const items: StreamItem[] = [];
  let from: string | undefined;
  const pending = [...breaks].sort((a, b) => a - b);
  for (;;) {
    let broke = false;
    for await (const item of run.stream(from ? { from } : {})) {
      items.push(item);
      from = item.cursor;
      if (pending.length > 0 && items.length >= pending[0]!) {
        pending.shift();
        broke = true;
        break;
      }
    }
    if (!broke) return items;
  }
}

/** Durable events lost or given twice, and runs whose answer's text deltas do not join to the answer. */
function defects(items: StreamItem[], answer: string): { lost: number; repeated: number; textWrong: boolean } {
  const seqs = items.flatMap((item) => (item.type === 'event' && item.depth === 0 ? [item.event.seq] : []));
  const unique = new Set(seqs);
  const last = Math.max(0, ...seqs);
  const finished = items.filter((item) => item.type === 'event' && item.event.type === 'model_call_finished').length;
  // The text of the last model call (the answer), after its last restart.
  const lastIteration = Math.max(0, ...items.flatMap((item) => (item.type === 'text_delta' ? [item.iteration] : [])));
  let text = '';
  for (const item of items) {
    if (item.type === 'model_call_restarted' && item.iteration === lastIteration) text = '';
    if (item.type === 'text_delta' && item.iteration === lastIteration) text += item.text;
  }
  const textWrong = finished === 0 || text !== answer;
  if (textWrong && process.env.BENCH_STREAM_DUMP) require('node:fs').writeFileSync(`${process.env.BENCH_STREAM_DUMP}/${items[0]?.workflowId}.json`, JSON.stringify(items.map(({ cursor, ...item }) => ({ ...item, cursor: JSON.parse(Buffer.from(cursor, 'base64url').toString()) })), null, 1));
  if (textWrong) console.log(`  stream of ${items[0]?.workflowId}: the answer's text deltas join to ${JSON.stringify(text.slice(0, 80))}… (${text.length} of ${answer.length} characters)`);
  return { lost: last - unique.size, repeated: seqs.length - unique.size, textWrong };
}

function spawnChildWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'stream-worker-child.ts')], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (data: Buffer) => String(data).includes('worker ready') && resolve(child));
    child.once('exit', (code) => reject(new Error(`the stream bench's child worker exited (${code})`)));
  });
}

/** A worker of the stream bench's agents in this process, with its live endpoint. */
function streamWorker(connection: NativeConnection, taskQueue: string, modelUrl: string, bundleFile: string) {
  return createWorker({
    agents: streamBenchAgents,
    connection,
    config: { taskQueue, defaultModel: 'stream-bench' },
    model: createChatModel({ baseURL: modelUrl, apiKey: 'bench', defaultModel: 'stream-bench' }),
    workflowBundle: { codePath: bundleFile },
    log: () => undefined,
  });
}

export async function measureStreams(options: { address: string; bundleFile: string }): Promise<SummaryRow[]> {
  const clock = new FirstTextClock();
  const model = await startScriptedModelServer({ byModel: scripts, chunkDelayMs: 10, onChunkSent: (index, chunk) => clock.onChunk(index, chunk) });
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await streamWorker(connection, TASK_QUEUE, model.baseURL, options.bundleFile);
  const running = worker.run();
  const client = await AgentClient.connect({ address: options.address, taskQueue: TASK_QUEUE });
  const rows: SummaryRow[] = [];
  try {
    // Latency: the model's first text 1 s after the request (a real model's time to first token), and at once.
    const slow = await measureLatency(client, clock, 'slow-start-reader');
    rows.push({
      part: 'stream',
      figure: `first text delta at a subscriber after the model sent it (first token 1 s in; median, p90 of ${slow.length})`,
      value: `${median(slow).toFixed(0)} ms, ${percentile(slow, 90).toFixed(0)} ms`,
      target: '≤ 150 ms',
      met: median(slow) <= 150,
      load: loadavg()[0]!,
    });
    const quick = await measureLatency(client, clock, 'stream-reader');
    rows.push({
      part: 'stream',
      figure: `the same, the first token at once (the stream finds the call first; median, p90 of ${quick.length})`,
      value: `${median(quick).toFixed(0)} ms, ${percentile(quick, 90).toFixed(0)} ms`,
      target: '≤ 150 ms',
      met: median(quick) <= 150,
      load: loadavg()[0]!,
    });

    // History: a streaming run and the same run without streaming, 10 iterations with 2,000-character tool results.
    // A tool iteration's events: from one model call's scheduling to the next one's, the last such
    // span of a 10-page run (as P4 measures it; the run's result, which grows with it, is left out).
    const perIteration = async (agent: string) => {
      const run = await client.start(agent, { prompt: 'pages 10' });
      await run.result();
      const events = (await run.handle.fetchHistory()).events ?? [];
      const modelCalls = events.flatMap((event, index) => (event.activityTaskScheduledEventAttributes?.activityType?.name === 'callModel' ? [index] : []));
      return events.slice(modelCalls.at(-2)!, modelCalls.at(-1)!).reduce((sum, event) => sum + eventBytes(event), 0);
    };
    const streamed = await perIteration('stream-reader');
    const plain = await perIteration('plain-reader');
    rows.push({
      part: 'stream',
      figure: 'history of a tool iteration (2,000-character result), streamed vs not streamed (encoded events)',
      value: `${streamed.toFixed(0)} B vs ${plain.toFixed(0)} B`,
      target: '≤ 6 KB; no events added (≤ 1% more bytes)',
      met: streamed <= 6 * 1024 && streamed <= plain * 1.01,
      load: loadavg()[0]!,
    });

    // Reconnects: 20 runs, 5 drops each at random items; one continues as new, one loses its worker (SIGKILL) mid-answer.
    const runs: { run: AgentRun; crash?: boolean }[] = [];
    for (let index = 0; index < RECONNECT_RUNS - 2; index++) runs.push({ run: await client.start('stream-reader', { prompt: `pages ${1 + (index % 4)}` }) });
    runs.push({ run: await client.start('stream-reader', { prompt: 'pages 12', continueAsNewAfterEvents: 40 }) });
    const perRun = RECONNECTS / RECONNECT_RUNS;
    const breaks = () => Array.from({ length: perRun }, () => 1 + Math.floor(Math.random() * 30));
    const read = await Promise.all(runs.map(({ run }) => readWithReconnects(run, breaks())));

    // The crash: the answer is streamed by a worker in another process, killed mid-answer.
    const crashQueue = `${TASK_QUEUE}-crash`;
    const childEnv = { BENCH_ADDRESS: options.address, BENCH_TASK_QUEUE: crashQueue, BENCH_MODEL_URL: model.baseURL, BENCH_BUNDLE: options.bundleFile };
    const slowModel = await startScriptedModelServer({ byModel: scripts, chunkDelayMs: 60 });
    childEnv.BENCH_MODEL_URL = slowModel.baseURL;
    const child = await spawnChildWorker(childEnv);
    const crashClient = await AgentClient.connect({ address: options.address, taskQueue: crashQueue });
    const crashRun = await crashClient.start('stream-reader', { prompt: 'pages 1' });
    let deltasSeen = 0;
    let killed = false;
    const crashItems: StreamItem[] = [];
    let from: string | undefined;
    const crashBreaks = breaks();
    let replacement: Awaited<ReturnType<typeof createWorker>> | undefined;
    let replacementRunning: Promise<void> | undefined;
    for (;;) {
      let broke = false;
      for await (const item of crashRun.stream(from ? { from } : {})) {
        crashItems.push(item);
        from = item.cursor;
        if (item.type === 'text_delta' && ++deltasSeen === 5 && !killed) {
          killed = true;
          child.kill('SIGKILL');
          replacement = await streamWorker(connection, crashQueue, slowModel.baseURL, options.bundleFile);
          replacementRunning = replacement.run();
        }
        if (crashBreaks.length > 0 && crashItems.length >= crashBreaks[0]!) {
          crashBreaks.shift();
          broke = true;
          break;
        }
      }
      if (!broke) break;
    }
    replacement?.shutdown();
    await replacementRunning;
    await crashClient.close();
    await slowModel.close();
    read.push(crashItems);

    const found = read.map((items) => defects(items, ANSWER));
    const lost = found.reduce((sum, d) => sum + d.lost, 0);
    const repeated = found.reduce((sum, d) => sum + d.repeated, 0);
    const wrongText = found.filter((d) => d.textWrong).length;
    const restarted = crashItems.some((item) => item.type === 'model_call_restarted');
    rows.push({
      part: 'stream',
      figure: `${RECONNECTS} reconnects over ${read.length} runs (one continued as new, one worker SIGKILLed${restarted ? ', restart announced' : ''}): events lost, repeated; answers wrong`,
      value: `${lost}, ${repeated}; ${wrongText}`,
      target: '0, 0; 0',
      met: lost === 0 && repeated === 0 && wrongText === 0 && restarted,
      load: loadavg()[0]!,
    });
  } finally {
    await client.close();
    worker.shutdown();
    await running;
    await connection.close();
    await model.close();
  }
  return rows;
}
