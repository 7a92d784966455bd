import { NativeConnection } from '@temporalio/worker';
import { createChatModel } from '../../src/model/create-chat-model';
import type { AgentDefinition } from '../../src/toolkit/define-agent';
import { createWorker, type CreateWorkerOptions } from '../../src/worker/create-worker';
import { testAddress, testNamespace, workflowBundle } from './temporal-env';

const TEST_MODEL = 'scripted-model';

export interface VersionedWorkerOptions {
  agents: AgentDefinition[];
  taskQueue: string;
  modelBaseURL: string;
  deployment: NonNullable<CreateWorkerOptions['deployment']>;
  /** Shows up in history as the identity of the worker that ran each activity. */
  identity: string;
}

/** A real agent worker of one deployment version on the test server. */
export async function startVersionedWorker(options: VersionedWorkerOptions): Promise<{ stop(): Promise<void> }> {
  const connection = await NativeConnection.connect({ address: testAddress() });
  try {
    const worker = await createWorker({
      agents: options.agents,
      connection,
      config: { taskQueue: options.taskQueue, defaultModel: TEST_MODEL, namespace: testNamespace() },
      model: createChatModel({ baseURL: options.modelBaseURL, apiKey: 'test-key', defaultModel: TEST_MODEL }),
      workflowBundle: workflowBundle(),
      deployment: options.deployment,
      workerOptions: { identity: options.identity },
      log: () => undefined,
    });
    const running = worker.run();
    let stopped: Promise<void> | undefined;
    return {
      stop() {
        stopped ??= (async () => {
          worker.shutdown();
          await running;
          await connection.close();
        })();
        return stopped;
      },
    };
  } catch (error) {
    await connection.close();
    throw error;
  }
}
