import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { AgentClient } from '../../src/client/agent-client';
import { bundleAgentWorkflows } from '../../src/worker/bundle-workflows';
import { encryptedDataConverter } from '../../src/codec/encrypted-data-converter';
import { isEncryptedPayload } from '../../src/codec/encryption-codec';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { startCodecWorker, type CodecWorkerOptions, type RunningWorker } from './helpers/codec-worker';
import { keySet } from './helpers/test-keys';
import { vaultAgent, vaultScript } from './helpers/vault-agent';

describe.each<[string, (dir: string) => Promise<Partial<CodecWorkerOptions>>]>([
  ['a worker that bundles it at start', async () => ({ bundleAtStart: true })],
  [
    'a prebuilt bundle made with encryptedFailures',
    async (dir) => ({ bundlePath: (await bundleAgentWorkflows({ outFile: join(dir, 'bundle.js'), encryptedFailures: true })).codePath }),
  ],
])('failures raised by the workflow code, with %s', (_name, workerOptions) => {
  const keys = keySet('k-fail');
  let model: ScriptedModelServer;
  let worker: RunningWorker;
  let taskQueue: string;
  let dir: string;

  beforeAll(async () => {
    model = await startScriptedModelServer({ script: vaultScript });
    taskQueue = uniqueTaskQueue('codec-failure');
    dir = mkdtempSync(join(tmpdir(), 'codec-failure-'));
    worker = await startCodecWorker({ agents: [vaultAgent], taskQueue, modelBaseURL: model.baseURL, dataConverter: encryptedDataConverter(keys), ...(await workerOptions(dir)) });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await model?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the run's failure message is stored in its encrypted attributes; a client with the key reads it as usual", async () => {
    const client = await AgentClient.connect({ connection: await testConnection(), taskQueue, dataConverter: encryptedDataConverter(keys) });
    const run = await client.start('vault-agent', { prompt: 'REFUSE-4711' });
    const error = await run.result().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    const cause = (error as WorkflowFailedError).cause as ApplicationFailure;
    expect(cause.message).toContain('REFUSE-4711');

    const failed = (await run.handle.fetchHistory()).events!.find((event) => event.workflowExecutionFailedEventAttributes)!.workflowExecutionFailedEventAttributes!.failure!;
    expect(failed.message).toBe('Encoded failure');
    expect(JSON.stringify(failed)).not.toContain('REFUSE-4711');
    expect(isEncryptedPayload(failed.encodedAttributes!)).toBe(true);
  });
});
