import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataConverter } from '@temporalio/common';
import { AgentClient } from '../client/agent-client';
import type { ConnectionOverrides } from '../connection/connection-overrides';
import { startTestTemporal, type TestTemporal } from '../testing/test-temporal';
import type { AgentDefinition } from '../toolkit/define-agent';
import type { WorkerConfig } from '../worker/config';
import { createWorker, type AgentWorker } from '../worker/create-worker';
import type { CaseToolsRegistry } from './case-tools';
import { evalAgents } from './eval-agents';

export interface EvalEnvironmentOptions {
  agents: AgentDefinition[];
  registry: CaseToolsRegistry;
  /** A running Temporal (the connection flags); without it, a dev server of the eval's own. */
  connection?: ConnectionOverrides;
  dataConverter?: DataConverter;
  /** A workflow bundle made by `durable-agent bundle`; bundled at start otherwise. */
  workflowBundle?: string;
  /** Worker settings over the environment's (model endpoint, default model). */
  worker?: Partial<WorkerConfig>;
  log(message: string): void;
}

export interface EvalEnvironment {
  client: AgentClient;
  worker: AgentWorker;
  taskQueue: string;
  /** Ends what the eval started: client, worker, and the dev server when it started one. */
  close(): Promise<void>;
}

/** TEMPORAL_CLI, the PATH's, or this package's checkout's (.tools/, as `npm test` installs it); else startTestTemporal finds or installs one. */
function knownTemporalCli(): string | undefined {
  const { findTemporalCli } = require('../../scripts/temporal-cli.cjs') as { findTemporalCli(options: { root: string; install: boolean; log: () => void }): string | null };
  return findTemporalCli({ root: join(__dirname, '..', '..'), install: false, log: () => undefined }) ?? undefined;
}

function evalTaskQueue(): string {
  return `eval-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Temporal (the one given, or a dev server started for the eval), a worker of the suite's agents
 * on a task queue of the eval's own, their tools wrapped for the cases, and a client.
 * MCP servers are not connected: a case's agent has its code tools only.
 */
export async function startEvalEnvironment(options: EvalEnvironmentOptions): Promise<EvalEnvironment> {
  const cleanups: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  try {
    let connection = options.connection;
    if (!connection) {
      options.log('starting a Temporal dev server for the eval');
      const cliPath = knownTemporalCli();
      const temporal: TestTemporal = await startTestTemporal({ log: options.log, ...(cliPath ? { cliPath } : {}) });
      cleanups.push(() => temporal.stop());
      connection = { address: temporal.address, namespace: temporal.namespace };
    }
    const { address, namespace, ...temporalOptions } = connection;
    const taskQueue = evalTaskQueue();
    const scratch = mkdtempSync(join(tmpdir(), 'durable-agent-eval-'));
    cleanups.push(async () => rmSync(scratch, { recursive: true, force: true }));
    const worker = await createWorker({
      agents: evalAgents(options.agents, options.registry),
      config: {
        ...options.worker,
        taskQueue,
        ...(address !== undefined ? { temporalAddress: address } : {}),
        ...(namespace !== undefined ? { namespace } : {}),
        temporal: temporalOptions,
        toolsConfigPath: join(scratch, 'no-tools.json'),
        live: { off: true },
      },
      ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
      ...(options.workflowBundle ? { workflowBundle: { codePath: options.workflowBundle } } : {}),
      log: options.log,
    });
    const running = worker.run().catch((error: unknown) => options.log(`the eval's worker stopped: ${(error as Error).message}`));
    cleanups.push(async () => {
      worker.shutdown();
      await running;
    });
    const client = await AgentClient.connect({ ...connection, taskQueue, ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}) });
    cleanups.push(() => client.close());
    return { client, worker, taskQueue, close };
  } catch (error) {
    await close();
    throw error;
  }
}
