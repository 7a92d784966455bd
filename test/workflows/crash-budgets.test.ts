import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import type { ApplicationFailure } from '@temporalio/common';
import { AgentClient } from '../../src/client/agent-client';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { budgetAgent, executions } from '../fixtures/budget-tools';
import { startTestWorker } from '../helpers/agent-test-env';
import { killOnceDone, killWhenActivityRuns, spawnWorker } from '../helpers/crash-worker';
import { maybeRecordHistory } from '../helpers/record-history';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';

/** How many times the history shows an activity of this type started, by attempt. */
async function startedAttempts(run: { handle: { fetchHistory(): Promise<{ events?: any[] | null }> } }, activity: string): Promise<number[]> {
  const events = (await run.handle.fetchHistory()).events ?? [];
  const types = new Map<string, string>();
  for (const event of events) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) types.set(String(event.eventId), scheduled.activityType?.name ?? '');
  }
  return events
    .filter((event) => event.activityTaskStartedEventAttributes && types.get(String(event.activityTaskStartedEventAttributes.scheduledEventId)) === activity)
    .map((event) => event.activityTaskStartedEventAttributes.attempt ?? 1);
}

/** Kills the worker once the ledger shows `count` executions (so each killed attempt ran the tool's code). */
function killAfterExecutions(count: number, worker: ChildProcess): Promise<void> {
  return killOnceDone(() => executions().length >= count, `${count} tool execution(s) in the ledger`, worker);
}

/** Temporal's attempt cap of each scheduled activity of the type (0: none, retried until its total timeout). */
async function scheduledAttemptCaps(run: { handle: { fetchHistory(): Promise<{ events?: any[] | null }> } }, activity: string): Promise<number[]> {
  const events = (await run.handle.fetchHistory()).events ?? [];
  return events
    .map((event) => event.activityTaskScheduledEventAttributes)
    .filter((scheduled) => scheduled?.activityType?.name === activity)
    .map((scheduled) => scheduled.retryPolicy?.maximumAttempts ?? 0);
}

describe("crashes never spend a step's own attempts", () => {
  let model: ScriptedModelServer;
  let ledgerDir: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    model = await startScriptedModelServer({ script: ['unused'] });
  });
  beforeEach(() => {
    ledgerDir = mkdtempSync(join(tmpdir(), 'budget-'));
    process.env.LEDGER_DIR = ledgerDir;
  });
  afterEach(() => rmSync(ledgerDir, { recursive: true, force: true }));
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await model.close();
  });

  async function worker(taskQueue: string): Promise<ChildProcess> {
    const child = await spawnWorker(taskQueue, model.baseURL, ledgerDir);
    children.push(child);
    return child;
  }

  test('a tool allowed one attempt of its own outlives two killed workers and reports its result', async () => {
    model.setScript([{ toolCalls: [{ name: 'once', arguments: { completesOn: 3 } }] }, 'Done.']);
    const taskQueue = uniqueTaskQueue('budget-once');
    const first = await worker(taskQueue);
    const client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    const run = await client.start('budget-test', { prompt: 'do it once' });
    await killAfterExecutions(1, first);
    const second = await worker(taskQueue);
    await killAfterExecutions(2, second);
    const third = await startTestWorker([budgetAgent], taskQueue, model.baseURL);
    try {
      const result = await run.result();
      expect(result.output).toBe('Done.');
      expect(result.messages.find((m) => m.role === 'tool')).toMatchObject({ state: 'success', content: 'done on execution 3' });
      expect(executions()).toHaveLength(3);
      expect(await startedAttempts(run, 'executeTool')).toEqual([3]);
      // However many workers die, Temporal itself never gives up on the step: only its total timeout does.
      expect(await scheduledAttemptCaps(run, 'executeTool')).toEqual([0]);
      expect(await scheduledAttemptCaps(run, 'callModel')).toEqual([0, 0]);
    } finally {
      await third.stop();
    }
  });

  test("a model call allowed one attempt of its own outlives its killed worker: the run completes", async () => {
    model.setScript([{ text: 'Answered after the crash.', faults: [{ stallMs: 30_000 }] }]);
    const taskQueue = uniqueTaskQueue('budget-model');
    const first = await worker(taskQueue);
    const client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    const run = await client.start('budget-test', { prompt: 'answer' });
    await killWhenActivityRuns(run, first, 'callModel', 1);
    const second = await startTestWorker([budgetAgent], taskQueue, model.baseURL);
    try {
      const result = await run.result();
      expect(result).toMatchObject({ status: 'completed', output: 'Answered after the crash.' });
    } finally {
      await second.stop();
    }
  });

  test("the step's own failures count across a crash and a new worker: the second one is final", async () => {
    model.setScript([{ toolCalls: [{ name: 'flaky', arguments: {} }] }, 'The backend failed.']);
    const taskQueue = uniqueTaskQueue('budget-flaky');
    const first = await worker(taskQueue);
    const client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    const run = await client.start('budget-test', { prompt: 'try the backend' });
    // Execution 1 fails on its own; execution 2 hangs until its worker is killed.
    await killAfterExecutions(2, first);
    const second = await startTestWorker([budgetAgent], taskQueue, model.baseURL);
    try {
      const result = await run.result();
      const tool = result.messages.find((m) => m.role === 'tool');
      expect(tool).toMatchObject({ state: 'error' });
      expect(tool!.content).toBe('Error: Tool execution failed: the backend is down (execution 3) [2 of 2 attempts failed]');
      expect(executions()).toHaveLength(3);
      expect(await startedAttempts(run, 'executeTool')).toEqual([3]);
      await maybeRecordHistory(run, 'own-failures-across-crash');
    } finally {
      await second.stop();
    }
  });

  test("a model's own failures use its attempts: the last is final and the run fails with the model's failure type", async () => {
    model.setScript([{ text: 'never sent', faults: [{ status: 503, times: 5 }] }]);
    const taskQueue = uniqueTaskQueue('budget-503');
    const only = await startTestWorker([budgetAgent], taskQueue, model.baseURL);
    try {
      const client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
      const before = model.requests.length;
      const run = await client.start('budget-test', { prompt: 'answer' });
      const error = await run.result().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WorkflowFailedError);
      const cause = (error as WorkflowFailedError).cause as ApplicationFailure;
      expect(cause.type).toBe('Model.ServerError');
      expect(cause.message).toMatch(/HTTP 503.*\[1 of 1 attempts failed\]$/);
      expect(model.requests.length - before).toBe(1);
    } finally {
      await only.stop();
    }
  });
});
