import { loadavg } from 'node:os';
import { defaultPayloadConverter } from '@temporalio/common';
import type { NativeConnection } from '@temporalio/worker';
import type { temporal } from '@temporalio/proto';
import { AgentClient } from '../src/client/agent-client';
import type { AgentSchedule } from '../src/client/schedules';
import { startBenchWorker } from './bench-worker';
import { loadAverage } from './load-average';
import { median, percentile } from './stats';
import type { SummaryRow } from './summary';

const TASK_QUEUE = 'bench-schedule';
/** Schedules firing side by side, each every second: FIRES fires take about FIRES / SCHEDULES seconds. */
const SCHEDULES = 10;

interface FireTimes {
  workflowId: string;
  /** Start latency: the fire's time to the run's start (the scheduler's start request recorded), and to its first workflow task on the worker. */
  toStartMs: number;
  toFirstTaskMs: number;
}

function ms(time: temporal.api.history.v1.IHistoryEvent['eventTime']): number {
  return Number(time!.seconds) * 1000 + Math.floor((time!.nanos ?? 0) / 1e6);
}

/** From the run's history: the fire time Temporal recorded (TemporalScheduledStartTime), its start and its first workflow task. */
async function fireTimes(client: AgentClient, workflowId: string): Promise<FireTimes> {
  const events = (await client.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const started = events[0]!;
  const field = started.workflowExecutionStartedEventAttributes?.searchAttributes?.indexedFields?.TemporalScheduledStartTime;
  if (!field) throw new Error(`${workflowId} has no TemporalScheduledStartTime: not started by a schedule`);
  const scheduledAt = Date.parse(defaultPayloadConverter.fromPayload<string>(field));
  const firstTask = events.find((event) => event.workflowTaskStartedEventAttributes);
  if (!firstTask) throw new Error(`${workflowId}: no workflow task started yet`);
  return { workflowId, toStartMs: ms(started.eventTime) - scheduledAt, toFirstTaskMs: ms(firstTask.eventTime) - scheduledAt };
}

function line(label: string, samples: number[]): string {
  return `${label.padEnd(40)} p50 ${median(samples).toFixed(0)} ms  p95 ${percentile(samples, 95).toFixed(0)} ms  max ${Math.max(...samples).toFixed(0)} ms  (${samples.length} fires)`;
}

/**
 * How soon a schedule's fire becomes a running agent run. Method: SCHEDULES schedules of the
 * bench agent, each `every: '1s'` with overlap allowAll, fire side by side (about SCHEDULES fires a
 * second, the load beside the figures) until `fires` fires have been taken; then they are deleted.
 * Real fires, timed by Temporal's scheduler, not triggers or a backfill: a trigger's fire time is
 * the request's, and a backfill's are in the past, so neither measures the scheduler's own lag.
 * For each run, from its history: the fire time Temporal records (search attribute
 * TemporalScheduledStartTime) to the run's start event, and to its first workflow task's start (a
 * worker has it). Times are the server's clock throughout.
 */
export async function measureSchedules(options: { connection: NativeConnection; address: string; modelUrl: string; bundle: { code: string }; fires: number }): Promise<SummaryRow[]> {
  const worker = await startBenchWorker({ connection: options.connection, modelUrl: options.modelUrl, taskQueue: TASK_QUEUE, bundle: options.bundle });
  const client = await AgentClient.connect({ address: options.address, taskQueue: TASK_QUEUE });
  const prefix = `bench-schedule-${Date.now().toString(36)}`;
  const schedules: AgentSchedule[] = [];
  let ids: string[] = [];
  const began = Date.now();
  try {
    for (let i = 0; i < Math.min(SCHEDULES, options.fires); i++) {
      schedules.push(await client.schedule('bench', { id: `${prefix}-${i}`, every: '1s', prompt: 'noop once', overlap: 'allowAll' }));
    }
    const taken = async () => (await Promise.all(schedules.map((schedule) => schedule.describe()))).reduce((sum, description) => sum + description.firesTaken, 0);
    const deadline = Date.now() + 60_000 + options.fires * 1000;
    while ((await taken()) < options.fires) {
      if (Date.now() > deadline) throw new Error(`fewer than ${options.fires} fires taken in time`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    for (const schedule of schedules) await schedule.pause('bench done');
    const wantedBy = (await Promise.all(schedules.map((schedule) => schedule.describe()))).flatMap((description) => description.recentRuns.map((run) => run.workflowId));
    // recentRuns holds only the last few of each: the rest are read through visibility.
    ids = await waitForRuns(client, schedules.map((schedule) => schedule.id), options.fires, wantedBy);
  } finally {
    for (const schedule of schedules) await schedule.delete().catch(() => undefined);
  }
  const seconds = (Date.now() - began) / 1000;
  let times: FireTimes[];
  try {
    // Each run's first workflow task has started by now (or soon: the worker is still up).
    times = [];
    for (const id of ids.slice(0, options.fires)) times.push(await retryUntilStarted(client, id));
    for (const id of ids) await client.get(id).result().catch(() => undefined);
  } finally {
    await client.close();
    await worker.stop();
  }
  const toStart = times.map((time) => time.toStartMs);
  const toTask = times.map((time) => time.toFirstTaskMs);
  const load = loadavg()[0];
  const rate = `${Math.min(SCHEDULES, options.fires)} schedules every 1s (~${(ids.length / seconds).toFixed(1)} fires/s)`;
  console.log(`\nSchedules: ${times.length} fires of ${rate}; ${loadAverage()}`);
  console.log(`    ${line('fire time → run started', toStart)}`);
  console.log(`    ${line('fire time → first workflow task', toTask)}`);
  return [
    { part: 'schedule', figure: `fire → run started: p50 / p95 ms (${times.length} fires, ${rate})`, value: `${median(toStart).toFixed(0)} / ${percentile(toStart, 95).toFixed(0)}`, target: '', load },
    { part: 'schedule', figure: `fire → first workflow task: p50 / p95 ms`, value: `${median(toTask).toFixed(0)} / ${percentile(toTask, 95).toFixed(0)}`, target: '', load },
  ];
}

async function waitForRuns(client: AgentClient, scheduleIds: string[], fires: number, recent: string[]): Promise<string[]> {
  const query = `TemporalScheduledById IN (${scheduleIds.map((id) => `'${id}'`).join(', ')})`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const runs = await client.list({ query, limit: fires * 2 });
    const ids = [...new Set([...runs.map((run) => run.workflowId), ...recent])];
    if (ids.length >= fires || Date.now() > deadline) return ids;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function retryUntilStarted(client: AgentClient, workflowId: string): Promise<FireTimes> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fireTimes(client, workflowId);
    } catch (error) {
      if (attempt >= 40 || !/no workflow task started yet/.test((error as Error).message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
