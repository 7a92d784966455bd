// The `nexus` part of `npm run bench`: what a run started through Nexus costs beside a direct start.
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { promisify } from 'node:util';
import { Client } from '@temporalio/client';
import { Worker, type NativeConnection } from '@temporalio/worker';
import { AgentClient } from '../src/client/agent-client';
import { createChatModel } from '../src/model/create-chat-model';
import { createWorker } from '../src/worker/create-worker';
import { benchAgent, BenchModels } from './bench-agents';
import { timeAlternating } from './alternating';
import { loadAverage } from './load-average';
import { median, percentile } from './stats';
import type { SummaryRow } from './summary';

const exec = promisify(execFile);

/** The namespace the bench's server creates at launch for this part's caller workflows. */
export const NEXUS_CALLER_NAMESPACE = 'bench-callers';
const AGENT_QUEUE = 'bench-nexus-agents';
const CALLER_QUEUE = 'bench-nexus-callers';
const ENDPOINT = 'bench-agents';

/**
 * Alternating, after a warm-up: (a) a direct start (AgentClient.start, then result()) of the `bench`
 * agent (one tool call, two model calls), against (b) a workflow of another namespace that runs
 * the same agent through a Nexus endpoint and returns when the run's result comes back (the
 * client starts that workflow and awaits its result). b − a is what the hop costs: the caller's
 * workflow, the operation's start through the endpoint, the result's callback.
 */
export async function measureNexus(options: {
  cliPath: string;
  address: string;
  connection: NativeConnection;
  modelUrl: string;
  bundleFile: string;
  warmup: number;
  rounds: number;
}): Promise<SummaryRow[]> {
  await exec(options.cliPath, [
    'operator', 'nexus', 'endpoint', 'create', '--address', options.address, '--name', ENDPOINT,
    '--target-namespace', 'default', '--target-task-queue', AGENT_QUEUE, '--disable-config-file', '--disable-config-env',
  ]);
  const agents = await createWorker({
    agents: [benchAgent],
    connection: options.connection,
    config: { taskQueue: AGENT_QUEUE, defaultModel: BenchModels.oneCall, live: { off: true } },
    model: createChatModel({ baseURL: options.modelUrl, apiKey: 'bench', defaultModel: BenchModels.oneCall }),
    workflowBundle: { codePath: options.bundleFile },
    nexus: true,
    log: () => undefined,
  });
  const agentsRunning = agents.run();
  const callers = await Worker.create({ connection: options.connection, namespace: NEXUS_CALLER_NAMESPACE, taskQueue: CALLER_QUEUE, workflowsPath: require.resolve('./nexus-callers') });
  const callersRunning = callers.run();
  const client = await AgentClient.connect({ address: options.address, taskQueue: AGENT_QUEUE });
  const callerClient = new Client({ connection: client.client.connection, namespace: NEXUS_CALLER_NAMESPACE });
  try {
    let n = 0;
    const direct = async () => {
      const result = await (await client.start('bench', { prompt: 'go', id: `nexus-direct-${n++}` })).result();
      if (result.status !== 'completed') throw new Error(`a direct run ended ${result.status}`);
    };
    const overNexus = async () => {
      const status = await callerClient.workflow.execute('benchNexusCaller', {
        taskQueue: CALLER_QUEUE,
        workflowId: `nexus-caller-${n}`,
        args: [ENDPOINT, 'bench', 'go', `nexus-run-${n++}`],
      });
      if (status !== 'completed') throw new Error(`a run over Nexus ended ${status}`);
    };
    const [directs, hops] = await timeAlternating(direct, overNexus, options);
    const overhead = median(hops) - median(directs);
    console.log(`\nNexus: ${options.rounds} runs of each kind (after ${options.warmup} warm-up), alternating; the bench agent (one tool call, two model calls)`);
    console.log(`(a) AgentClient.start, then result():                           median ${median(directs).toFixed(1)} ms  (p90 ${percentile(directs, 90).toFixed(1)} ms)`);
    console.log(`(b) a workflow of another namespace, through the endpoint:      median ${median(hops).toFixed(1)} ms  (p90 ${percentile(hops, 90).toFixed(1)} ms)`);
    console.log(`b − a: ${overhead.toFixed(1)} ms; b/a: ${(median(hops) / median(directs)).toFixed(2)}; ${loadAverage()}`);
    return [
      { part: 'nexus', figure: 'a run started through Nexus from another namespace − a direct start, to the result (median ms)', value: overhead.toFixed(1), target: '', load: loadavg()[0] },
      { part: 'nexus', figure: 'through Nexus ÷ direct, to the result (median)', value: (median(hops) / median(directs)).toFixed(2), target: '', load: loadavg()[0] },
    ];
  } finally {
    await client.close();
    callers.shutdown();
    await callersRunning;
    agents.shutdown();
    await agentsRunning;
  }
}
