import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { ServiceHandler } from 'nexus-rpc';
import { AgentClient } from '../../src/client/agent-client';
import { createChatModel } from '../../src/model/create-chat-model';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ModelScript, ScriptedModelServer } from '../../src/testing/scripted-model-types';
import type { AgentDefinition } from '../../src/toolkit/define-agent';
import { createWorker, type AgentWorker } from '../../src/worker/create-worker';
import { startDedicatedDevServer, type DedicatedDevServer } from '../helpers/dedicated-dev-server';
import { uniqueTaskQueue, workflowBundle } from '../helpers/temporal-env';

const exec = promisify(execFile);

/** The namespace whose worker serves the agents (and their Nexus service). */
export const AGENTS_NAMESPACE = 'agents-a';
/** The other team's namespace: its workflows call the agents, its worker serves the tools' operations. */
export const CALLER_NAMESPACE = 'callers-b';
/** The endpoint B's workflows reach A's agents through (the server is the test file's own, so the names are fixed). */
export const AGENTS_ENDPOINT = 'agents-of-a';
/** The endpoint A's runs reach B's operations through. */
export const TOOLS_ENDPOINT = 'tools-of-b';

export interface TwoNamespaces {
  server: DedicatedDevServer;
  model: ScriptedModelServer;
  /** AgentClient of namespace A, where the runs live and are answered. */
  agents: AgentClient;
  agentWorker: AgentWorker;
  /** Temporal client of namespace B. */
  callers: Client;
  callerTaskQueue: string;
  /** The task queue of A's agents' worker. */
  agentTaskQueue: string;
  /** The endpoint B's workflows reach A's agents through. */
  agentsEndpoint: string;
  /** The endpoint A's runs reach B's operations through. */
  toolsEndpoint: string;
  stop(): Promise<void>;
}

export interface TwoNamespacesOptions {
  cliPath: string;
  agents: AgentDefinition[];
  script: ModelScript;
  /** Workflows of namespace B's worker (a module path). */
  callerWorkflowsPath?: string;
  /** Nexus services B's worker serves. */
  callerServices?: ServiceHandler<any>[];
  /** The agents' service name, given as the worker's config (AGENT_NEXUS_SERVICE's setting); else `nexus: true` ('durable-agent'). */
  agentService?: string;
  /** What the agents' worker logs. */
  agentWorkerLog?: (line: string) => void;
}

async function createEndpoint(cliPath: string, address: string, name: string, namespace: string, taskQueue: string): Promise<void> {
  await exec(cliPath, [
    'operator', 'nexus', 'endpoint', 'create',
    '--address', address,
    '--name', name,
    '--target-namespace', namespace,
    '--target-task-queue', taskQueue,
    '--disable-config-file', '--disable-config-env',
  ]);
}

/**
 * A dedicated dev server with two namespaces and an endpoint each way: B → A's agents (served by
 * createWorker with `nexus: true`), A → B's operations (the nexusTools' handlers).
 */
export async function startTwoNamespaces(options: TwoNamespacesOptions): Promise<TwoNamespaces> {
  const server = await startDedicatedDevServer(options.cliPath, { namespaces: [AGENTS_NAMESPACE, CALLER_NAMESPACE] });
  const closers: (() => Promise<void>)[] = [() => server.dispose()];
  const stop = async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  };
  try {
    const model = await startScriptedModelServer({ script: options.script });
    closers.push(() => model.close());
    const agentTaskQueue = uniqueTaskQueue('nexus-agents');
    const callerTaskQueue = uniqueTaskQueue('nexus-callers');
    const agentsEndpoint = AGENTS_ENDPOINT;
    const toolsEndpoint = TOOLS_ENDPOINT;
    await createEndpoint(options.cliPath, server.address, agentsEndpoint, AGENTS_NAMESPACE, agentTaskQueue);
    await createEndpoint(options.cliPath, server.address, toolsEndpoint, CALLER_NAMESPACE, callerTaskQueue);

    const agentConnection = await NativeConnection.connect({ address: server.address });
    closers.push(() => agentConnection.close());
    const agentWorker = await createWorker({
      agents: options.agents,
      connection: agentConnection,
      config: { taskQueue: agentTaskQueue, defaultModel: 'scripted-model', namespace: AGENTS_NAMESPACE, ...(options.agentService ? { nexusService: options.agentService } : {}) },
      model: createChatModel({ baseURL: model.baseURL, apiKey: 'test-key', defaultModel: 'scripted-model' }),
      workflowBundle: workflowBundle(),
      ...(options.agentService ? {} : { nexus: true }),
      log: options.agentWorkerLog ?? (() => undefined),
    });
    const agentRunning = agentWorker.run();
    closers.push(async () => {
      agentWorker.shutdown();
      await agentRunning;
    });

    const callerConnection = await NativeConnection.connect({ address: server.address });
    closers.push(() => callerConnection.close());
    const callerWorker = await Worker.create({
      connection: callerConnection,
      namespace: CALLER_NAMESPACE,
      taskQueue: callerTaskQueue,
      ...(options.callerWorkflowsPath ? { workflowsPath: options.callerWorkflowsPath } : {}),
      ...(options.callerServices ? { nexusServices: options.callerServices } : {}),
    });
    const callerRunning = callerWorker.run();
    closers.push(async () => {
      if (callerWorker.getState() === 'RUNNING') callerWorker.shutdown();
      await callerRunning;
    });

    const connection = await Connection.connect({ address: server.address });
    closers.push(() => connection.close());
    const agents = await AgentClient.connect({ connection, namespace: AGENTS_NAMESPACE, taskQueue: agentTaskQueue });
    const callers = new Client({ connection, namespace: CALLER_NAMESPACE });
    return { server, model, agents, agentWorker, callers, callerTaskQueue, agentTaskQueue, agentsEndpoint, toolsEndpoint, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
