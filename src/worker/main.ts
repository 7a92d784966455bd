import { demoAgents } from '../demo/agents';
import { readWorkerConfig } from './config';
import { createWorker } from './create-worker';

/**
 * `npm run worker`: one more worker for the demo agents, e.g. to scale out next to `npm start`
 * (point OPENAI_BASE_URL at the model the demo prints). Your own project calls createWorker
 * with its own agents the same way.
 */
async function main(): Promise<void> {
  const config = readWorkerConfig();
  // The connection comes from Temporal's environment configuration (TEMPORAL_ADDRESS, TEMPORAL_API_KEY, TLS, profile).
  // A bundle made ahead of time (`durable-agent bundle`) spares the worker webpack at every start.
  const bundle = process.env.AGENT_WORKFLOW_BUNDLE;
  const worker = await createWorker({
    agents: demoAgents({ workspace: config.workspace }),
    config,
    ...(bundle ? { workflowBundle: { codePath: bundle } } : {}),
  });
  const { temporalAddress, taskQueue, namespace } = worker.config;
  console.log(`[durable-agent] worker on ${temporalAddress}, namespace ${namespace}, task queue ${taskQueue}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => worker.shutdown());
  await worker.run();
}

main().catch((error) => {
  console.error(`[durable-agent] worker failed: ${(error as Error).message}`);
  process.exit(1);
});
