import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { findFreePorts, startDevServer, type DevServer } from '../../scripts/dev-server.cjs';
import { createChatModel } from '../../src/model/create-chat-model';
import type { AgentDefinition } from '../../src/toolkit/define-agent';
import { createWorker, type CreateWorkerOptions } from '../../src/worker/create-worker';
import { TEST_ENV, workflowBundle } from './temporal-env';

const TEST_MODEL = 'scripted-model';

/** The Temporal CLI global setup used, or undefined when the tests run against an external server. */
export function temporalCliPath(): string | undefined {
  return process.env[TEST_ENV.cli] || undefined;
}

/**
 * A dev server of one test file alone (own ports, own SQLite file), so the file may stop and
 * restart it while other files run against the shared one.
 */
export interface DedicatedDevServer {
  address: string;
  /** The Web UI (and its HTTP API), when started with `ui`. */
  uiUrl: string | null;
  /** What the server writes (its log at level warn). */
  logFile: string;
  /** PID of the server process now running, undefined while stopped. */
  pid(): number | undefined;
  stop(): Promise<void>;
  /** Starts it again on the same port and database file. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  dispose(): Promise<void>;
}

export interface DedicatedDevServerOptions {
  /** `key=value` dynamic configuration instead of the project's (DEV_SERVER_DYNAMIC_CONFIG). */
  dynamicConfig?: readonly string[];
  /** Serve the Web UI too. */
  ui?: boolean;
  /** Namespaces created at launch beside 'default' (each gets the project's search attributes). */
  namespaces?: readonly string[];
}

export async function startDedicatedDevServer(cliPath: string, options: DedicatedDevServerOptions = {}): Promise<DedicatedDevServer> {
  const dir = mkdtempSync(join(tmpdir(), 'durable-agent-dedicated-'));
  const [port, uiPort] = await findFreePorts(2);
  const dbFile = join(dir, 'temporal.sqlite');
  const launch = () =>
    startDevServer({ cliPath, port, uiPort, dbFile, headless: !options.ui, ...(options.dynamicConfig ? { dynamicConfig: options.dynamicConfig } : {}), ...(options.namespaces ? { namespaces: options.namespaces } : {}) });
  let server: DevServer | undefined = await launch();
  const stop = async () => {
    const running = server;
    server = undefined;
    await running?.stop();
  };
  return {
    address: server.address,
    uiUrl: server.uiUrl,
    logFile: server.logFile,
    pid: () => server?.pid,
    stop,
    async start() {
      if (server) throw new Error(`the dedicated dev server already runs (pid ${server.pid})`);
      server = await launch();
    },
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A real agent worker (createWorker, real model client) on the given server; `more` createWorker options (a data converter, …). */
export async function startWorkerAt(
  address: string,
  agents: AgentDefinition[],
  taskQueue: string,
  modelBaseURL: string,
  more: Partial<CreateWorkerOptions> = {},
): Promise<{ stop(): Promise<void> }> {
  const connection = await NativeConnection.connect({ address });
  try {
    const worker = await createWorker({
      agents,
      connection,
      config: { taskQueue, defaultModel: TEST_MODEL, namespace: 'default' },
      model: createChatModel({ baseURL: modelBaseURL, apiKey: 'test-key', defaultModel: TEST_MODEL }),
      workflowBundle: workflowBundle(),
      log: () => undefined,
      ...more,
    });
    const running = worker.run();
    return {
      async stop() {
        worker.shutdown();
        await running;
        await connection.close();
      },
    };
  } catch (error) {
    await connection.close();
    throw error;
  }
}
