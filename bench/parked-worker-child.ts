import { DefaultLogger, Runtime } from '@temporalio/worker';
import { createWorker } from '../src/worker/create-worker';
import { benchAgent, BenchModels, parkedAgent } from './bench-agents';
import type { ParkedWorkerReplies, ParkedWorkerRequest } from './parked-worker-messages';
import { measureHeaps } from './thread-heaps';

/**
 * The P3 worker, alone in its process (started with --expose-gc and bench/thread-heaps.ts preloaded)
 * so that its heap is the worker's only: a worker as createWorker makes it, with default cache
 * settings unless BENCH_PARKED_MAX_CACHED says otherwise. It counts the runs waiting for approval
 * through the agent workflow's own sink.
 */
async function main(): Promise<void> {
  const env = (name: string) => process.env[name] || undefined;
  const maxCached = env('BENCH_PARKED_MAX_CACHED');
  let waiting = 0;
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const agentWorker = await createWorker({
    agents: [benchAgent, parkedAgent],
    config: {
      temporalAddress: env('BENCH_PARKED_ADDRESS')!,
      taskQueue: env('BENCH_PARKED_TASK_QUEUE')!,
      openaiBaseUrl: env('BENCH_PARKED_MODEL_URL')!,
      defaultModel: BenchModels.oneCall,
    },
    sinks: {
      durableAgentMetrics: {
        awaitingApproval: {
          fn: (_info: unknown, _agent: string, delta: number) => {
            waiting += delta;
          },
        },
      },
    },
    ...(maxCached ? { workerOptions: { maxCachedWorkflows: Number(maxCached) } } : {}),
    log: () => undefined,
  });
  const running = agentWorker.run();
  const reply = <K extends keyof ParkedWorkerReplies>(message: ParkedWorkerReplies[K]) => process.send!(message);
  const workflowThreads = agentWorker.worker.options.workflowThreadPoolSize;

  process.on('message', (request: ParkedWorkerRequest) => {
    if (request.type === 'waiting') reply<'waiting'>({ type: 'waiting', count: waiting });
    else if (request.type === 'heap') {
      measureHeaps(workflowThreads).then(
        (reading) => reply<'heap'>({ type: 'heap', reading }),
        (error: Error) => {
          process.stderr.write(`${error.stack}\n`);
          process.exit(1);
        },
      );
    } else if (request.type === 'stop') {
      agentWorker.shutdown();
      running.finally(() => process.disconnect());
    }
  });
  reply<'ready'>({ type: 'ready', maxCachedWorkflows: agentWorker.worker.options.maxCachedWorkflows, workflowThreads });
  await running;
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
