import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AgentClient } from '../../src/client/agent-client';
import type { AgentDefinition } from '../../src/toolkit/define-agent';
import { startTestWorker } from '../helpers/agent-test-env';
import { testConnection } from '../helpers/temporal-env';

/** A worker with tracing on the test server. */
export async function startTracedWorker(options: {
  agents: AgentDefinition[];
  taskQueue: string;
  baseURL: string;
  spanProcessor: SpanProcessor;
  captureContent?: boolean;
}) {
  return startTestWorker(options.agents, options.taskQueue, options.baseURL, undefined, {}, {
    telemetry: { spanProcessor: options.spanProcessor, ...(options.captureContent !== undefined ? { captureContent: options.captureContent } : {}) },
  });
}

export async function tracedClient(taskQueue: string, spanProcessor: SpanProcessor): Promise<AgentClient> {
  return AgentClient.connect({ connection: await testConnection(), taskQueue, telemetry: { spanProcessor } });
}
