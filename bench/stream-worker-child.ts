// A worker of the stream bench's agents in a process of its own, so the bench can SIGKILL it mid-call.
import { NativeConnection } from '@temporalio/worker';
import { createChatModel } from '../src/model/create-chat-model';
import { createWorker } from '../src/worker/create-worker';
import { streamBenchAgents } from './stream-agents';

async function main(): Promise<void> {
  const connection = await NativeConnection.connect({ address: process.env.BENCH_ADDRESS! });
  const worker = await createWorker({
    agents: streamBenchAgents,
    connection,
    config: { taskQueue: process.env.BENCH_TASK_QUEUE!, defaultModel: 'stream-bench' },
    model: createChatModel({ baseURL: process.env.BENCH_MODEL_URL!, apiKey: 'bench', defaultModel: 'stream-bench' }),
    workflowBundle: { codePath: process.env.BENCH_BUNDLE! },
    log: () => undefined,
  });
  process.stdout.write('worker ready\n');
  await worker.run();
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
