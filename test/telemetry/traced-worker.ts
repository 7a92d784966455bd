import { NativeConnection } from '@temporalio/worker';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AgentClient } from '../../src/client/agent-client';
import { createChatModel } from '../../src/model/create-chat-model';
import type { AgentDefinition } from '../../src/toolkit/define-agent';
import { createWorker } from '../../src/worker/create-worker';
import { testAddress, testConnection, workflowBundle } from '../helpers/temporal-env';

/** A worker with tracing on the test server. */
export async function startTracedWorker(options: {
  agents: AgentDefinition[];
  taskQueue: string;
  baseURL: string;
  spanProcessor: SpanProcessor;
  captureContent?: boolean;
}) {
  const connection = await NativeConnection.connect({ address: testAddress() });
  const worker = await createWorker({
    agents: options.agents,
    connection,
    config: { taskQueue: options.taskQueue, defaultModel: 'scripted-model', namespace: 'default' },
    model: createChatModel({ baseURL: options.baseURL, apiKey: 'test-key', defaultModel: 'scripted-model' }),
    workflowBundle: workflowBundle(),
    telemetry: { spanProcessor: options.spanProcessor, ...(options.captureContent !== undefined ? { captureContent: options.captureContent } : {}) },
    log: () => undefined,
  });
  const running = worker.run();
  return {
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

export async function tracedClient(taskQueue: string, spanProcessor: SpanProcessor): Promise<AgentClient> {
  return AgentClient.connect({ connection: await testConnection(), taskQueue, telemetry: { spanProcessor } });
}
