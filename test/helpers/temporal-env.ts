import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Connection } from '@temporalio/client';
import { startDevServer, stopDevServerByPid } from '../../scripts/dev-server.cjs';

/** Environment variables that test/helpers/global-setup.ts sets for every test worker. */
export const TEST_ENV = {
  /** host:port of the Temporal frontend the tests use. */
  address: 'TEMPORAL_TEST_ADDRESS',
  namespace: 'TEMPORAL_TEST_NAMESPACE',
  /** Temporal CLI that started the server (unset when TEMPORAL_ADDRESS names an external server). */
  cli: 'TEMPORAL_TEST_CLI',
  /** SQLite file of the dev server; a restarted server reuses it. */
  db: 'TEMPORAL_TEST_DB',
  port: 'TEMPORAL_TEST_PORT',
  uiPort: 'TEMPORAL_TEST_UI_PORT',
  /** PID of the dev server at setup time; after restartDevServer() the PID file is the truth. */
  pid: 'TEMPORAL_TEST_PID',
  pidFile: 'TEMPORAL_TEST_PID_FILE',
  /** Temporary folder of this jest run (db, bundle, PID file); teardown removes it. */
  stateDir: 'TEMPORAL_TEST_STATE_DIR',
  /** Prebuilt workflow bundle of src/workflows/index.ts. */
  workflowBundle: 'TEMPORAL_TEST_WORKFLOW_BUNDLE',
  /** Time-skipping test server binary, for TestWorkflowEnvironment.createTimeSkipping. */
  testServerPath: 'TEMPORAL_TEST_SERVER_PATH',
} as const;

function requireEnv(name: string, why: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: ${why}`);
  return value;
}

/** Address of the Temporal server of this test run. */
export function testAddress(): string {
  return requireEnv(TEST_ENV.address, 'run the tests through jest so test/helpers/global-setup.ts starts Temporal');
}

export function testNamespace(): string {
  return process.env[TEST_ENV.namespace] || 'default';
}

let connection: Promise<Connection> | undefined;

/** A client Connection to the test server, shared by the tests of one file and closed after them. */
export function testConnection(): Promise<Connection> {
  connection ??= Connection.connect({ address: testAddress() }).catch((error: unknown) => {
    connection = undefined;
    throw error;
  });
  return connection;
}

export async function closeTestConnection(): Promise<void> {
  const current = connection;
  connection = undefined;
  if (current) await (await current).close();
}

if (typeof afterAll === 'function') afterAll(closeTestConnection);

/** The workflow bundle built once per jest run; pass it as Worker.create({ workflowBundle }). */
export function workflowBundle(): { codePath: string } {
  const codePath = requireEnv(
    TEST_ENV.workflowBundle,
    'src/workflows/index.ts did not exist when the jest run started, so no workflow bundle was built',
  );
  if (!existsSync(codePath)) throw new Error(`workflow bundle ${codePath} is missing (${TEST_ENV.workflowBundle})`);
  return { codePath };
}

let queueCounter = 0;

/** A task queue name no other test (or earlier run on a persistent server) uses. */
export function uniqueTaskQueue(prefix: string): string {
  queueCounter += 1;
  const random = Math.random().toString(36).slice(2, 8);
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${queueCounter}-${random}`;
}

/** True when this run started its own dev server, so restartDevServer() can be used. */
export function canRestartDevServer(): boolean {
  return Boolean(process.env[TEST_ENV.cli] && process.env[TEST_ENV.pidFile] && process.env[TEST_ENV.db]);
}

export function readDevServerPid(pidFile: string): number | undefined {
  try {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Stops the run's dev server and starts a new one on the same port and SQLite file, so
 * everything the server had persisted (histories, timers, pending signals) must survive.
 * Existing Connections and workers reconnect by themselves.
 */
export async function restartDevServer(): Promise<{ address: string; pid: number }> {
  if (!canRestartDevServer()) {
    throw new Error(
      'restartDevServer() needs the dev server that test/helpers/global-setup.ts starts; ' +
        'it is unavailable when TEMPORAL_ADDRESS points at an external server. Skip such tests with canRestartDevServer().',
    );
  }
  const pidFile = process.env[TEST_ENV.pidFile]!;
  const oldPid = readDevServerPid(pidFile);
  if (oldPid) await stopDevServerByPid(oldPid);
  const server = await startDevServer({
    cliPath: process.env[TEST_ENV.cli]!,
    port: Number(requireEnv(TEST_ENV.port, 'set by global setup')),
    uiPort: Number(requireEnv(TEST_ENV.uiPort, 'set by global setup')),
    dbFile: process.env[TEST_ENV.db]!,
    headless: true,
    namespace: testNamespace(),
  });
  writeFileSync(pidFile, String(server.pid));
  process.env[TEST_ENV.pid] = String(server.pid);
  return { address: server.address, pid: server.pid };
}
