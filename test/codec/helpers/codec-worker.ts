import type { DataConverter } from '@temporalio/common';
import { NativeConnection, type WorkerInterceptors } from '@temporalio/worker';
import { createChatModel } from '../../../src/model/create-chat-model';
import type { AgentDefinition } from '../../../src/toolkit/define-agent';
import { createWorker, type AgentWorker } from '../../../src/worker/create-worker';
import { testAddress, workflowBundle } from '../../helpers/temporal-env';

export interface CodecWorkerOptions {
  agents: AgentDefinition[];
  taskQueue: string;
  modelBaseURL: string;
  /** Unset: the worker reads AGENT_ENCRYPTION_KEY_FILE / AGENT_ENCRYPTION_KEYS, as `npm run worker` does. */
  dataConverter?: DataConverter;
  interceptors?: WorkerInterceptors;
  address?: string;
  /** Bundle the workflow code at start, as a worker without a prebuilt bundle does (slower). */
  bundleAtStart?: boolean;
  /** A prebuilt bundle of the test's own (e.g. made with `encryptedFailures`) instead of the suite's. */
  bundlePath?: string;
}

export interface RunningWorker {
  worker: AgentWorker;
  stop(): Promise<void>;
}

/** A real agent worker built with createWorker, the way an application builds one, on the test server. */
export async function startCodecWorker(options: CodecWorkerOptions): Promise<RunningWorker> {
  const connection = await NativeConnection.connect({ address: options.address ?? testAddress() });
  let worker: AgentWorker;
  try {
    worker = await createWorker({
      agents: options.agents,
      connection,
      config: { taskQueue: options.taskQueue, defaultModel: 'scripted-model', namespace: 'default' },
      model: createChatModel({ baseURL: options.modelBaseURL, apiKey: 'test-key', defaultModel: 'scripted-model' }),
      ...(options.bundleAtStart ? {} : { workflowBundle: options.bundlePath ? { codePath: options.bundlePath } : workflowBundle() }),
      ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
      ...(options.interceptors ? { interceptors: options.interceptors } : {}),
      log: () => undefined,
    });
  } catch (error) {
    await connection.close();
    throw error;
  }
  const running = worker.run();
  return {
    worker,
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}
