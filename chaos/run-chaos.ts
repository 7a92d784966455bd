import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { AgentClient } from '../src/client/agent-client';
import type { AgentRunResult } from '../src/common/run';
import { startScriptedModelServer } from '../src/testing/scripted-model-server';
import { bundleAgentWorkflows } from '../src/worker/bundle-workflows';
import { CHAOS_AGENT } from './chaos-agent';
import { chaosModel } from './chaos-model';
import { judgeRuns, type ChaosReport, type RunOutcome } from './chaos-report';
import { ChaosServer } from './chaos-server';
import { mapLimit } from '../bench/map-limit';
import { EffectLedger } from './effect-ledger';
import { WorkerPool } from './worker-pool';
import { persist } from './persist';

const EventType = temporal.api.enums.v1.EventType;

export interface ChaosOptions {
  runs: number;
  steps: number;
  /** Worker processes kept running. */
  workers: number;
  /** Workers SIGKILLed at random while runs are in flight (each replaced). */
  workerKills: number;
  /** Times the Temporal server is SIGKILLed and restarted on its database. */
  serverRestarts: number;
  /** Pause between two chaos events. */
  everyMs: number;
  /** How long the server stays down. */
  downMs: number;
  /** How long one tool call takes, at random in this range. */
  toolMs: [number, number];
  /** A prebuilt workflow bundle (else one is made). */
  workflowBundle?: string;
  /** Give up waiting for the runs after this long. */
  timeoutMs: number;
  log: (line: string) => void;
}

const START_CONCURRENCY = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => `load ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${require('node:os').cpus().length} cores`;


async function outcomeOf(client: Client, workflowId: string, deadline: number): Promise<RunOutcome> {
  const handle = client.workflow.getHandle(workflowId);
  let result: AgentRunResult | undefined;
  let error: string | undefined;
  try {
    result = (await persist(() => handle.result(), deadline)) as AgentRunResult;
  } catch (e) {
    error = (e as Error).message;
  }
  const events = (await persist(() => handle.fetchHistory(), deadline)).events ?? [];
  return {
    workflowId,
    ...(result ? { result } : {}),
    ...(error ? { error } : {}),
    workflowTaskFailed: events.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED).length,
    activityRetries: events.filter((e) => (e.activityTaskStartedEventAttributes?.attempt ?? 1) > 1).length,
  };
}

/**
 * The project's chaos run: N runs of M side-effecting tool steps on real worker processes with
 * default settings, while workers are SIGKILLed at random and the Temporal server is SIGKILLed and
 * restarted on its database; then every run is checked against the effect ledger.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const dir = mkdtempSync(join(tmpdir(), 'durable-agent-chaos-'));
  const { log } = options;
  const ledger = new EffectLedger(join(dir, 'ledger'));
  const model = await startScriptedModelServer({ script: chaosModel(options.steps) });
  const server = await ChaosServer.start(join(dir, 'server'), log);
  let pool: WorkerPool | undefined;
  let connection: Connection | undefined;
  try {
    const bundle = options.workflowBundle ?? (await bundleAgentWorkflows({ outFile: join(dir, 'workflow-bundle.js') })).codePath;
    const taskQueue = 'chaos';
    pool = new WorkerPool({
      size: options.workers,
      log,
      env: {
        TEMPORAL_ADDRESS: server.address,
        TEMPORAL_NAMESPACE: 'default',
        TEMPORAL_TASK_QUEUE: taskQueue,
        OPENAI_BASE_URL: model.baseURL,
        AGENT_MODULE: join(__dirname, 'chaos-agent.ts'),
        AGENT_WORKFLOW_BUNDLE: bundle,
        CHAOS_LEDGER_DIR: ledger.dir,
        CHAOS_TOOL_MS: options.toolMs.join('-'),
      },
    });
    await pool.start();
    log(`chaos: ${options.workers} workers up on ${server.address}; starting ${options.runs} runs`);
    const started = Date.now();
    const deadline = started + options.timeoutMs;
    const agents = await AgentClient.connect({ address: server.address, namespace: 'default', taskQueue });
    const ids = Array.from({ length: options.runs }, (_, i) => `chaos-${i}`);
    await mapLimit(ids, START_CONCURRENCY, (id, i) =>
      persist(async () => {
        // A start whose answer was lost with the server did start the run: its retry finds it.
        await agents.start(CHAOS_AGENT, { prompt: `apply the ${options.steps} steps of plan ${i}`, id }).catch((error: Error) => {
          if (error.name !== 'WorkflowExecutionAlreadyStartedError') throw error;
        });
      }, deadline),
    );

    connection = await Connection.connect({ address: server.address });
    const client = new Client({ connection, namespace: 'default' });
    const open = () => persist(async () => (await client.workflow.count(`TaskQueue = '${taskQueue}' AND ExecutionStatus = 'Running'`)).count, deadline);
    const events: Array<'worker' | 'server'> = [];
    for (let k = 0, s = 0; k < options.workerKills || s < options.serverRestarts; ) {
      if (k < options.workerKills) events.push('worker'), k++;
      if (s < options.serverRestarts) events.push('server'), s++;
    }
    for (const event of events) {
      await sleep(options.everyMs * (0.5 + Math.random()));
      const running = await open();
      if (running === 0) break;
      log(`${running} runs open`);
      if (event === 'worker') await pool.killOne();
      else {
        log('server SIGKILLed');
        await server.killAndRestart(options.downMs);
        log('server restarted on its database');
      }
    }
    while ((await open()) > 0) {
      if (Date.now() > deadline) throw new Error(`runs still open after ${options.timeoutMs} ms`);
      await sleep(500);
    }
    const seconds = (Date.now() - started) / 1000;
    const loadNow = load();
    const outcomes: RunOutcome[] = [];
    for (const id of ids) outcomes.push(await outcomeOf(client, id, deadline));
    const judged = judgeRuns(outcomes, ledger.effects(), ledger.executions(), options.steps);
    return {
      runs: options.runs,
      steps: options.steps,
      workers: options.workers,
      workerKills: pool.kills,
      serverRestarts: server.restarts,
      seconds,
      load: loadNow,
      ...judged,
    };
  } finally {
    await connection?.close().catch(() => undefined);
    await pool?.stop();
    await server.stop();
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
