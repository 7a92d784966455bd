import type { RuntimeMetricsOptions } from './install-runtime';

/** createWorker's `metrics` from AGENT_PROMETHEUS_ADDRESS (host:port), for the worker entry point. */
export function metricsFromEnv(env: NodeJS.ProcessEnv = process.env): { metrics: RuntimeMetricsOptions } | Record<string, never> {
  const address = env.AGENT_PROMETHEUS_ADDRESS?.trim();
  return address ? { metrics: { prometheus: address } } : {};
}
