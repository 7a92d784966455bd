import { IllegalStateError, type Logger } from '@temporalio/common';
import { Runtime } from '@temporalio/worker';
import { AgentMetric } from './metric-names';

/** Model calls take from a fraction of a second to minutes; the runtime's default buckets stop at 10 s. */
const MODEL_LATENCY_BUCKETS_MS = [100, 250, 500, 1000, 2500, 5000, 10_000, 20_000, 30_000, 60_000, 120_000, 300_000];

export interface RuntimeMetricsOptions {
  /** host:port where Temporal's runtime serves Prometheus metrics at GET /metrics, e.g. `0.0.0.0:9464`. */
  prometheus: string;
}

export interface InstallRuntimeOptions extends RuntimeMetricsOptions {
  /** The runtime's logger; Temporal's default otherwise. */
  logger?: Logger;
}

/**
 * Installs Temporal's runtime with a Prometheus endpoint: the SDK's worker metrics and the project's
 * (durable_agent_*). The runtime exists once per process and is created by the first connection
 * or worker, so call this first — createWorker({ metrics }) does, when it opens the connection itself.
 */
export function installRuntime(options: InstallRuntimeOptions): Runtime {
  try {
    return Runtime.install({
      ...(options.logger ? { logger: options.logger } : {}),
      telemetryOptions: {
        metrics: { prometheus: { bindAddress: options.prometheus, histogramBucketOverrides: { [AgentMetric.modelLatency]: MODEL_LATENCY_BUCKETS_MS } } },
      },
    });
  } catch (error) {
    if (!(error instanceof IllegalStateError)) throw error;
    throw new Error(
      `Cannot serve metrics on ${options.prometheus}: Temporal's runtime was already created in this process ` +
        `(by a connection, a worker or Runtime.install). Call installRuntime({ prometheus }) before any of them. (${(error as Error).message})`,
    );
  }
}
