import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentClient } from '../../src/client/agent-client';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { ledgerLines } from '../fixtures/transfer-tool';
import { crashAgent } from '../fixtures/worker-process';
import { startTestWorker } from '../helpers/agent-test-env';
import { killOnceDone, killWhenToolRuns, spawnWorker } from '../helpers/crash-worker';
import { maybeRecordHistory } from '../helpers/record-history';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';

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

    await killWhenToolRuns(run, child);

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

  test('SIGKILL inside a side-effecting tool: with ctx.idempotencyKey the effect is applied exactly once', async () => {
    const ledgerDir = mkdtempSync(join(tmpdir(), 'ledger-'));
    process.env.LEDGER_DIR = ledgerDir;
    model.setScript([{ toolCalls: [{ name: 'transfer', arguments: { amount: 100 } }] }, 'Transfer confirmed.']);
    const taskQueue = uniqueTaskQueue('idempotent');
    child = await spawnWorker(taskQueue, model.baseURL, ledgerDir);
    const client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    const run = await client.start('crash-test', { prompt: 'send 100' });
    await killOnceDone(() => ledgerLines().length > 0, 'the transfer applied', child);
    expect(ledgerLines()).toHaveLength(1);

    const second = await startTestWorker([crashAgent], taskQueue, model.baseURL);
    try {
      const result = await run.result();
      expect(result.output).toBe('Transfer confirmed.');
      // The retry ran the tool again, with the same key, and did not apply the effect twice.
      expect(result.messages.find((m) => m.role === 'tool')).toMatchObject({ content: 'transfer of 100 was already applied' });
      expect(ledgerLines()).toEqual([`${run.workflowId}:call_0_0 100`]);
    } finally {
      await second.stop();
      rmSync(ledgerDir, { recursive: true, force: true });
    }
  });
});
