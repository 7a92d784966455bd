import type { Logger } from '@temporalio/common';
import { NativeConnection } from '@temporalio/worker';
import type { Middleware } from '../../src/activities/middleware';
import { AgentClient } from '../../src/client/agent-client';
import type { McpServersInput } from '../../src/mcp';
import { createChatModel } from '../../src/model/create-chat-model';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import type { ModelScript, ScriptedModelServerOptions } from '../../src/testing/scripted-model-types';
import type { AgentDefinition } from '../../src/toolkit/define-agent';
import { createWorker, type AgentWorker, type CreateWorkerOptions } from '../../src/worker/create-worker';
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
  /** More options of the scripted model server, e.g. `chunkDelayMs` for slow streams. */
  modelServer?: Omit<ScriptedModelServerOptions, 'script' | 'byModel'>;
  middleware?: Middleware[];
  taskQueue?: string;
  /** Start no worker (the test starts its own, e.g. in a child process). */
  noWorker?: boolean;
  /** MCP servers of the worker, as createWorker takes them. */
  mcpServers?: McpServersInput;
  /** The worker's tools.json; the worker's default (AGENT_TOOLS_CONFIG, workspace/tools.json) when unset. */
  toolsConfigPath?: string;
  /** Logger of the worker's MCP connections. */
  logger?: Logger;
}

/** What a test worker gets besides its agents and model. */
export type TestWorkerMcpOptions = Pick<AgentTestEnvOptions, 'mcpServers' | 'toolsConfigPath' | 'logger'>;

const TEST_MODEL = 'scripted-model';

export async function startTestWorker(
  agents: AgentDefinition[],
  taskQueue: string,
  baseURL: string,
  middleware?: Middleware[],
  mcp: TestWorkerMcpOptions = {},
  /** More createWorker options (data converter, interceptors, telemetry, another bundle, …). */
  more: Partial<CreateWorkerOptions> = {},
): Promise<{ worker: AgentWorker; running: Promise<void>; stop(): Promise<void> }> {
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_TEST_ADDRESS! });
  let worker: AgentWorker;
  try {
    worker = await createWorker({
      agents,
      connection,
      config: { taskQueue, defaultModel: TEST_MODEL, namespace: 'default', ...(mcp.toolsConfigPath ? { toolsConfigPath: mcp.toolsConfigPath } : {}) },
      ...(mcp.mcpServers ? { mcpServers: mcp.mcpServers } : {}),
      ...(mcp.logger ? { logger: mcp.logger } : {}),
      model: createChatModel({ baseURL, apiKey: 'test-key', defaultModel: TEST_MODEL }),
      middleware,
      workflowBundle: workflowBundle(),
      log: () => undefined,
      ...more,
    });
  } catch (error) {
    await connection.close();
    throw error;
  }
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
  const model = await startScriptedModelServer({ ...options.modelServer, script: options.script, byModel: options.byModel });
  const taskQueue = options.taskQueue ?? uniqueTaskQueue('agent');
  const started = await startTestWorker(options.agents, taskQueue, model.baseURL, options.middleware, options);
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
