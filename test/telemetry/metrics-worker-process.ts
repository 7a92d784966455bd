import { createChatModel } from '../../src/model/create-chat-model';
import { createWorker } from '../../src/worker/create-worker';
import { metricsShop } from './metrics-agent';

/**
 * A worker serving Prometheus metrics, in a process of its own: Temporal's runtime is created once
 * per process, and a jest worker process already has one (test/helpers/quiet-runtime.ts).
 */
async function main(): Promise<void> {
  const worker = await createWorker({
    agents: [metricsShop],
    metrics: { prometheus: process.env.PROMETHEUS_ADDRESS! },
    config: { temporalAddress: process.env.TEMPORAL_TEST_ADDRESS!, namespace: 'default', taskQueue: process.env.TASK_QUEUE!, defaultModel: 'scripted-model' },
    model: createChatModel({ baseURL: process.env.MODEL_BASE_URL!, apiKey: 'test-key', defaultModel: 'scripted-model' }),
    workflowBundle: { codePath: process.env.TEMPORAL_TEST_WORKFLOW_BUNDLE! },
    log: () => undefined,
  });
  process.once('SIGTERM', () => worker.shutdown());
  process.stdout.write('worker ready\n');
  await worker.run();
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
