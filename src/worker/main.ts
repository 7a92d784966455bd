import { EncryptionKeyError } from '../codec/encryption-key-error';
import { readWorkerConfig } from './config';
import { WorkerConfigurationError } from './configuration-error';
import { createWorker } from './create-worker';
import { readEntrySettings } from './entry-settings';
import { startHealthFile } from './health-file';
import { loadWorkerAgents } from './load-worker-agents';
import { metricsFromEnv } from '../telemetry/metrics-env';

/**
 * `node dist/worker/main.js` (the Docker image) and `npm run worker`: a worker for the agents of
 * AGENT_MODULE, or for the demo agents with AGENT_DEMO=1. Everything comes from the environment
 * (README, "Environment variables").
 */
async function main(): Promise<void> {
  const settings = readEntrySettings();
  const config = readWorkerConfig();
  const { agents, mcpServers } = await loadWorkerAgents(settings.agents, config.workspace);
  // The connection comes from Temporal's environment configuration (TEMPORAL_ADDRESS, TEMPORAL_API_KEY, TLS, profile).
  const worker = await createWorker({
    agents,
    config,
    ...(mcpServers ? { mcpServers } : {}),
    // A bundle made ahead of time (`durable-agent bundle`) spares the worker webpack at every start.
    ...(settings.workflowBundle ? { workflowBundle: { codePath: settings.workflowBundle } } : {}),
    ...(settings.deployment ? { deployment: settings.deployment } : {}),
    // Prometheus at AGENT_PROMETHEUS_ADDRESS; tracing follows the OTEL_* variables by itself.
    ...metricsFromEnv(),
  });
  const { temporalAddress, taskQueue, namespace } = worker.config;
  const version = settings.deployment?.version;
  console.log(
    `[durable-agent] worker for ${agents.map((agent) => agent.name).join(', ')} on ${temporalAddress}, namespace ${namespace}, task queue ${taskQueue}` +
      (version ? `, version ${version.deploymentName}.${version.buildId} (${settings.deployment!.defaultVersioningBehavior})` : ', unversioned'),
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => worker.shutdown());
  const running = worker.run();
  const health = settings.healthFile ? startHealthFile(settings.healthFile, worker.worker) : undefined;
  try {
    await running;
  } finally {
    health?.stop();
  }
}

main().catch((error) => {
  if (error instanceof WorkerConfigurationError || error instanceof EncryptionKeyError) {
    // Exit 0: a restart cannot fix configuration, so `restart: on-failure` must not loop on it.
    console.error(`[durable-agent] worker not started: ${error.message}`);
    process.exit(0);
  }
  console.error(`[durable-agent] worker failed: ${(error as Error).message}`);
  process.exit(1);
});
