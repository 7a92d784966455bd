import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { AgentClient } from '../../src/client/agent-client';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { crashAgent } from '../fixtures/worker-process';
import { startTestWorker } from '../helpers/agent-test-env';
import { maybeRecordHistory } from '../helpers/record-history';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';

const ROOT = join(__dirname, '..', '..');
const STARTED = temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED;

function spawnWorker(taskQueue: string, baseURL: string): Promise<ChildProcess> {
  // One process (no tsx launcher in between), so SIGKILL really kills the worker.
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', join(ROOT, 'test', 'fixtures', 'worker-process.ts')], {
    env: { ...process.env, TASK_QUEUE: taskQueue, MODEL_BASE_URL: baseURL },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    child.stdout!.on('data', (d) => {
      if (String(d).includes('worker ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`worker exited early (${code}): ${stderr}`)));
  });
}

describe('a worker killed mid-run', () => {
  let model: ScriptedModelServer;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    model = await startScriptedModelServer({
      script: [{ toolCalls: [{ name: 'sleep', arguments: { ms: 4000 } }] }, 'Finished after the nap.'],
    });
  });
  afterAll(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await model.close();
  });

  test('SIGKILL during a tool call: a second worker finishes the run with the right answer', async () => {
    const taskQueue = uniqueTaskQueue('crash');
    child = await spawnWorker(taskQueue, model.baseURL);
    const client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    const run = await client.start('crash-test', { prompt: 'take a nap' });

    // Wait until the tool is running on the child worker, then kill it without warning.
    for (;;) {
      const pending = (await run.handle.describe()).raw.pendingActivities ?? [];
      const running = pending.find((a) => a.activityType?.name === 'executeTool' && a.state === STARTED);
      if (running) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    const second = await startTestWorker([crashAgent], taskQueue, model.baseURL);
    try {
      const result = await run.result();
      expect(result.status).toBe('completed');
      expect(result.output).toBe('Finished after the nap.');
      const tool = result.messages.find((m) => m.role === 'tool');
      expect(tool).toMatchObject({ content: 'slept 4000 ms', state: 'success' });
      // The first attempt died with its worker; the retry ran on the second worker.
      const history = await run.handle.fetchHistory();
      const started = history.events!.filter((e) => e.activityTaskStartedEventAttributes);
      expect(started.some((e) => (e.activityTaskStartedEventAttributes!.attempt ?? 1) > 1)).toBe(true);
      await maybeRecordHistory(run, 'worker-crash');
    } finally {
      await second.stop();
    }
  });
});
