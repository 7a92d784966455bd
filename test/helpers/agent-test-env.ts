import { NativeConnection } from '@temporalio/worker';
import type { Middleware } from '../../src/activities/middleware';
import { AgentClient } from '../../src/client/agent-client';
import { createChatModel } from '../../src/model/create-chat-model';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import type { ModelScript } from '../../src/testing/scripted-model-types';
import type { AgentDefinition } from '../../src/toolkit/define-agent';
import { createWorker, type AgentWorker } from '../../src/worker/create-worker';
import { testConnection, uniqueTaskQueue, workflowBundle } from './temporal-env';

export interface AgentTestEnv {
  client: AgentClient;
  model: ScriptedModelServer;
  taskQueue: string;
  worker: AgentWorker;
  /** Start one more worker on the same task queue (for scaling and crash tests). */
  stop(): Promise<void>;
}

export interface AgentTestEnvOptions {
  agents: AgentDefinition[];
  script?: ModelScript;
  byModel?: Record<string, ModelScript>;
  middleware?: Middleware[];
  taskQueue?: string;
  /** Start no worker (the test starts its own, e.g. in a child process). */
  noWorker?: boolean;
}

const TEST_MODEL = 'scripted-model';

export async function startTestWorker(
  agents: AgentDefinition[],
  taskQueue: string,
  baseURL: string,
  middleware?: Middleware[],
): Promise<{ worker: AgentWorker; running: Promise<void>; stop(): Promise<void> }> {
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_TEST_ADDRESS! });
  const worker = await createWorker({
    agents,
    connection,
    config: { taskQueue, defaultModel: TEST_MODEL, namespace: 'default' },
    model: createChatModel({ baseURL, apiKey: 'test-key', defaultModel: TEST_MODEL }),
    middleware,
    workflowBundle: workflowBundle(),
    log: () => undefined,
  });
  const running = worker.run();
  return {
    worker,
    running,
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

export async function startAgentTestEnv(options: AgentTestEnvOptions): Promise<AgentTestEnv> {
  const model = await startScriptedModelServer({ script: options.script, byModel: options.byModel });
  const taskQueue = options.taskQueue ?? uniqueTaskQueue('agent');
  const started = await startTestWorker(options.agents, taskQueue, model.baseURL, options.middleware);
  const client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
  return {
    client,
    model,
    taskQueue,
    worker: started.worker,
    async stop() {
      await started.stop();
      await model.close();
    },
  };
}
