'use strict';
// The P3 worker, alone in its process and run from the compiled package (dist/, built by the bench)
// with the benchmark's prebuilt workflow bundle, as a deployed worker runs: plain JavaScript, so no
// TypeScript loader adds to the heap it measures. Started with --expose-gc and
// bench/thread-heaps.cjs preloaded. It counts the runs waiting for approval through the agent
// workflow's own sink, and the bare waiting workflows through the bench's.

const { z } = require('zod');
const { DefaultLogger, Runtime } = require('@temporalio/worker');

const env = (name) => process.env[name] || undefined;
const dist = env('BENCH_PARKED_DIST');
const { createWorker } = require(`${dist}/entries/worker.js`);
const { defineAgent, defineTool } = require(`${dist}/index.js`);
const { measureHeaps } = require('./thread-heaps.cjs');

// The bench and parked agents of bench/bench-agents.ts (that file is TypeScript and imports src/).
const model = env('BENCH_PARKED_MODEL');
const noop = defineTool({ name: 'noop', description: 'Does nothing.', input: z.object({}), execute: () => 'ok' });
const agents = [
  defineAgent({ name: 'bench', instructions: 'Call noop once, then answer.', tools: [noop], model }),
  defineAgent({ name: 'parked', instructions: 'Call noop once, then answer.', tools: [noop], model, permissions: { ask: ['noop'] } }),
];

async function main() {
  const maxCached = env('BENCH_PARKED_MAX_CACHED');
  const counts = { waiting: 0, bareWaiting: 0 };
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const agentWorker = await createWorker({
    agents,
    workflowBundle: { codePath: env('BENCH_PARKED_BUNDLE') },
    config: { temporalAddress: env('BENCH_PARKED_ADDRESS'), taskQueue: env('BENCH_PARKED_TASK_QUEUE'), openaiBaseUrl: env('BENCH_PARKED_MODEL_URL'), defaultModel: model },
    sinks: {
      durableAgentMetrics: { awaitingApproval: { fn: (_info, _agent, delta) => void (counts.waiting += delta) } },
      benchFloor: { parked: { fn: () => void (counts.bareWaiting += 1) } },
    },
    ...(maxCached ? { workerOptions: { maxCachedWorkflows: Number(maxCached) } } : {}),
    log: () => undefined,
  });
  const running = agentWorker.run();
  const workflowThreads = agentWorker.worker.options.workflowThreadPoolSize;
  process.on('message', (request) => {
    if (request.type === 'waiting') process.send({ type: 'waiting', count: counts.waiting });
    else if (request.type === 'bareWaiting') process.send({ type: 'bareWaiting', count: counts.bareWaiting });
    else if (request.type === 'heap') {
      measureHeaps(workflowThreads).then(
        (reading) => process.send({ type: 'heap', reading }),
        (error) => {
          process.stderr.write(`${error.stack}\n`);
          process.exit(1);
        },
      );
    } else if (request.type === 'stop') {
      agentWorker.shutdown();
      running.finally(() => process.disconnect());
    }
  });
  process.send({ type: 'ready', maxCachedWorkflows: agentWorker.worker.options.maxCachedWorkflows, workflowThreads });
  await running;
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
