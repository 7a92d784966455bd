import { NativeConnection } from '@temporalio/worker';
import { AgentClient } from '../../src/client/agent-client';
import { defineAgent } from '../../src/toolkit/define-agent';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { startTestWorker } from '../helpers/agent-test-env';
import { uniqueTaskQueue } from '../helpers/temporal-env';

const agent = defineAgent({ name: 'eager', instructions: 'Answer.' });

describe('eager start: a client sharing the NativeConnection of a worker in its process', () => {
  let model: ScriptedModelServer;
  let native: NativeConnection;
  let worker: Awaited<ReturnType<typeof startTestWorker>>;
  const taskQueue = uniqueTaskQueue('eager');

  beforeAll(async () => {
    model = await startScriptedModelServer({});
    model.setScript(() => ({ text: 'hello' }));
    native = await NativeConnection.connect({ address: process.env.TEMPORAL_TEST_ADDRESS! });
    worker = await startTestWorker([agent], taskQueue, model.baseURL, undefined, {}, { connection: native });
  });
  afterAll(async () => {
    await worker?.stop();
    await native?.close();
    await model?.close();
  });

  test('with eagerStart, the server hands the first workflow task to this process; the run completes', async () => {
    const client = await AgentClient.connect({ connection: native, taskQueue, eagerStart: true });
    const run = await client.start('eager', { prompt: 'hi' });
    expect(run.eagerlyStarted).toBe(true);
    expect((await run.result()).output).toBe('hello');
  });

  test('without it, runs start through the task queue as before', async () => {
    const client = await AgentClient.connect({ connection: native, taskQueue });
    const run = await client.start('eager', { prompt: 'hi' });
    expect(run.eagerlyStarted).toBe(false);
    expect((await run.result()).output).toBe('hello');
  });
});
