import type { ChildProcess } from 'node:child_process';
import { AgentClient } from '../../src/client/agent-client';
import type { StreamItem } from '../../src/client/stream/stream-items';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { crashStreamer } from '../fixtures/worker-process';
import { startTestWorker } from '../helpers/agent-test-env';
import { killProcess, spawnWorker } from '../helpers/crash-worker';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';

// 4 characters a chunk, one chunk every 80 ms: about 5 s of streaming, so the kill lands in its middle.
const ANSWER =
  'When the worker that writes this answer is killed in the middle of it, Temporal gives the model call ' +
  'to another worker once its heartbeat is overdue; the stream says the call was made again and its text ' +
  'starts over, so a reader never sees half an answer glued to another.';
/** Text deltas of the first attempt seen before the worker is killed. */
const SEEN_BEFORE_KILL = 5;

type TextDelta = Extract<StreamItem, { type: 'text_delta' }>;

describe('run.stream() across a worker killed in the middle of a streaming model call', () => {
  let model: ScriptedModelServer;
  let child: ChildProcess | undefined;
  let second: { stop(): Promise<void> } | undefined;

  beforeAll(async () => {
    model = await startScriptedModelServer({ script: [ANSWER], chunkDelayMs: 80 });
  });
  afterAll(async () => {
    if (child?.exitCode === null && child.signalCode === null) await killProcess(child);
    await second?.stop();
    await model?.close();
  });

  test('the stream announces the retry (attempt 2) and its text starts over; the run completes with the whole answer', async () => {
    const taskQueue = uniqueTaskQueue('stream-crash');
    child = await spawnWorker(taskQueue, model.baseURL);
    const client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    const run = await client.start('crash-streamer', { prompt: 'explain' });

    const items: StreamItem[] = [];
    let killedAndReplaced: Promise<void> | undefined;
    for await (const item of run.stream()) {
      items.push(item);
      const firstAttempt = items.filter((seen) => seen.type === 'text_delta' && seen.attempt === 1);
      if (!killedAndReplaced && firstAttempt.length >= SEEN_BEFORE_KILL) {
        // The worker dies without warning while the model is still writing; a second worker takes the retry.
        killedAndReplaced = killProcess(child).then(async () => {
          second = await startTestWorker([crashStreamer], taskQueue, model.baseURL);
        });
      }
    }
    await killedAndReplaced;
    expect(killedAndReplaced).toBeDefined();

    const deltas = items.filter((item): item is TextDelta => item.type === 'text_delta');
    const first = deltas.filter((delta) => delta.attempt === 1);
    const retry = deltas.filter((delta) => delta.attempt === 2);
    expect(deltas.every((delta) => delta.iteration === 1 && delta.workflowId === run.workflowId && delta.depth === 0)).toBe(true);
    expect(deltas.length).toBe(first.length + retry.length);

    // The first attempt's text is the answer's beginning, cut off by the kill.
    const firstText = first.map((delta) => delta.text).join('');
    expect(first.length).toBeGreaterThanOrEqual(SEEN_BEFORE_KILL);
    expect(firstText.length).toBeLessThan(ANSWER.length);
    expect(ANSWER.startsWith(firstText)).toBe(true);

    // The restart is announced once, for the same iteration, between the two attempts' text.
    const restarts = items.filter((item) => item.type === 'model_call_restarted');
    expect(restarts).toEqual([expect.objectContaining({ type: 'model_call_restarted', workflowId: run.workflowId, depth: 0, iteration: 1, attempt: 2 })]);
    const restartAt = items.indexOf(restarts[0]!);
    expect(items.indexOf(first.at(-1)!)).toBeLessThan(restartAt);
    expect(items.indexOf(retry[0]!)).toBeGreaterThan(restartAt);

    // The retry's text starts over, read live from the second worker: on its own it is the whole answer.
    expect(retry.length).toBeGreaterThan(1);
    expect(retry.map((delta) => delta.text).join('')).toBe(ANSWER);

    // Events once each, in order; the last one ends the run with the answer.
    const events = items.flatMap((item) => (item.type === 'event' ? [item.event] : []));
    expect(events.map((event) => event.seq)).toEqual(events.map((_event, index) => index + 1));
    const finished = items.findIndex((item) => item.type === 'event' && item.event.type === 'model_call_finished');
    expect(items.indexOf(retry.at(-1)!)).toBeLessThan(finished);
    const last = items.at(-1)!;
    expect(last.type === 'event' && last.event.type === 'run_finished' && last.result?.output).toBe(ANSWER);
    const result = await run.result();
    expect(result).toMatchObject({ status: 'completed', output: ANSWER });

    // The model was asked twice for the one turn: the killed attempt and its retry.
    expect(model.requests.filter((request) => request.turnIndex === 0)).toHaveLength(2);
  }, 120_000);
});
