import { z } from 'zod';
import { defineAgent } from '../src/toolkit/define-agent';
import { defineTool } from '../src/toolkit/define-tool';
import { createWorker } from '../src/worker/create-worker';

/**
 * One worker start in a fresh process, as a deployed worker starts: prints how long createWorker
 * took. Settings come from the parent (bench/worker-start.ts) through the environment.
 */
async function main(): Promise<void> {
  const env = (name: string) => process.env[name] || undefined;
  const noop = defineTool({ name: 'noop', description: 'Does nothing.', input: z.object({}), execute: () => 'ok' });
  const agent = defineAgent({ name: 'bench', instructions: 'Call noop once, then answer.', tools: [noop] });
  const bundle = env('BENCH_START_BUNDLE');
  const began = performance.now();
  const worker = await createWorker({
    agents: [agent],
    config: { temporalAddress: env('BENCH_START_ADDRESS')!, taskQueue: env('BENCH_START_TASK_QUEUE')!, openaiBaseUrl: env('BENCH_START_MODEL_URL')! },
    ...(bundle ? { workflowBundle: { codePath: bundle } } : {}),
    log: () => undefined,
  });
  const ms = performance.now() - began;
  const running = worker.run();
  worker.shutdown();
  await running;
  process.stdout.write(`${JSON.stringify({ ms })}\n`);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
