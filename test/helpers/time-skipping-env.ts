import { TestWorkflowEnvironment } from '@temporalio/testing';
import { AgentClient } from '../../src/client/agent-client';
import { createChatModel } from '../../src/model/create-chat-model';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ModelScript, ScriptedModelServer } from '../../src/testing/scripted-model-types';
import type { AgentDefinition } from '../../src/toolkit/define-agent';
import { createWorker } from '../../src/worker/create-worker';
import { TEST_ENV, uniqueTaskQueue, workflowBundle } from './temporal-env';

const TEST_MODEL = 'scripted-model';

/** The time-skipping test server binary global setup found, or undefined (tests then skip). */
export function timeSkippingServerPath(): string | undefined {
  return process.env[TEST_ENV.testServerPath] || undefined;
}

export interface TimeSkippingAgentEnv {
  env: TestWorkflowEnvironment;
  /** A client on the test server; `env.client` handles skip time while their result is awaited. */
  client: AgentClient;
  model: ScriptedModelServer;
  taskQueue: string;
  stop(): Promise<void>;
}

/**
 * A time-skipping test server with one real agent worker (createWorker, real model client
 * against the scripted HTTP model server). Tests of one environment must run one at a time.
 */
export async function startTimeSkippingAgentEnv(options: { agents: AgentDefinition[]; script?: ModelScript }): Promise<TimeSkippingAgentEnv> {
  const path = timeSkippingServerPath();
  if (!path) throw new Error(`${TEST_ENV.testServerPath} is not set: no time-skipping test server`);
  const env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } } });
  const model = await startScriptedModelServer({ script: options.script });
  const taskQueue = uniqueTaskQueue('time-skipping');
  try {
    const worker = await createWorker({
      agents: options.agents,
      connection: env.nativeConnection,
      config: { taskQueue, defaultModel: TEST_MODEL, namespace: env.namespace ?? 'default' },
      model: createChatModel({ baseURL: model.baseURL, apiKey: 'test-key', defaultModel: TEST_MODEL }),
      workflowBundle: workflowBundle(),
      log: () => undefined,
    });
    const running = worker.run();
    const client = await AgentClient.connect({ connection: env.connection, taskQueue, namespace: env.namespace ?? 'default' });
    return {
      env,
      client,
      model,
      taskQueue,
      async stop() {
        worker.shutdown();
        await running;
        await model.close();
        await env.teardown();
      },
    };
  } catch (error) {
    await model.close();
    await env.teardown();
    throw error;
  }
}
