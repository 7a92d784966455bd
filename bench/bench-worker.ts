import { Client } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, type NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../src/activities/create-activities';
import { queryConversationReader } from '../src/activities/query-conversation-reader';
import { createChatModel } from '../src/model/create-chat-model';
import { agentWorkflowSinks } from '../src/telemetry/agent-workflow-sinks';
import { agentBundleOptions } from '../src/worker/agent-bundle-options';
import { AgentRegistry } from '../src/toolkit/agent-registry';
import { handWrittenLoopActivities } from './hand-written-loop';
import { benchAgent, BenchModels, delegateAgent, loopAgent, parallelAgent, parkedAgent, readerAgent } from './bench-agents';

export interface BenchWorker {
  worker: Worker;
  stop(): Promise<void>;
}

/** The agent workflow next to the floor workflows, bundled as every agent workflow bundle is (tracing interceptors, shared modules). */
export async function bundleBenchWorkflows(): Promise<{ code: string }> {
  const { code } = await bundleWorkflowCode({
    ...agentBundleOptions(),
    workflowsPath: require.resolve('./workflows'),
    logger: new DefaultLogger('ERROR'),
  });
  return { code };
}

/** A worker in this process that runs the floor workflows and the bench, loop and parallel agents, with the sinks every agent worker has. */
export async function startBenchWorker(options: {
  connection: NativeConnection;
  modelUrl: string;
  taskQueue: string;
  bundle: { code: string };
}): Promise<BenchWorker> {
  const registry = new AgentRegistry([benchAgent, loopAgent, parallelAgent, delegateAgent, readerAgent, parkedAgent], { defaultModel: BenchModels.oneCall });
  const activities = {
    ...createActivities({
      registry,
      model: createChatModel({ baseURL: options.modelUrl, apiKey: 'bench', defaultModel: BenchModels.oneCall }),
      conversations: queryConversationReader(new Client({ connection: options.connection })),
    }),
    noop: async () => undefined,
    ...handWrittenLoopActivities(options.modelUrl),
  };
  const worker = await Worker.create({
    connection: options.connection,
    taskQueue: options.taskQueue,
    activities,
    workflowBundle: options.bundle,
    sinks: agentWorkflowSinks(),
  });
  const running = worker.run();
  return {
    worker,
    async stop() {
      worker.shutdown();
      await running;
    },
  };
}
