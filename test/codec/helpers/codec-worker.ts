import type { DataConverter } from '@temporalio/common';
import type { WorkerInterceptors } from '@temporalio/worker';
import type { AgentDefinition } from '../../../src/toolkit/define-agent';
import type { AgentWorker } from '../../../src/worker/create-worker';
import { startTestWorker } from '../../helpers/agent-test-env';

export interface CodecWorkerOptions {
  agents: AgentDefinition[];
  taskQueue: string;
  modelBaseURL: string;
  /** Unset: the worker reads AGENT_ENCRYPTION_KEY_FILE / AGENT_ENCRYPTION_KEYS, as `npm run worker` does. */
  dataConverter?: DataConverter;
  interceptors?: WorkerInterceptors;
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
export function startCodecWorker(options: CodecWorkerOptions): Promise<RunningWorker> {
  return startTestWorker(options.agents, options.taskQueue, options.modelBaseURL, undefined, {}, {
    ...(options.bundleAtStart ? { workflowBundle: undefined } : {}),
    ...(options.bundlePath ? { workflowBundle: { codePath: options.bundlePath } } : {}),
    ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
    ...(options.interceptors ? { interceptors: options.interceptors } : {}),
  });
}
