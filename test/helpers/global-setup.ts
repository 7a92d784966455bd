import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findFreePorts, SEARCH_ATTRIBUTE_FLAGS, startDevServer } from '../../scripts/dev-server.cjs';
import { findTemporalCli, findTestServer } from '../../scripts/temporal-cli.cjs';
import globalTeardown, { GLOBAL_STATE_KEY, type GlobalTestState } from './global-teardown';
import { TEST_ENV } from './temporal-env';
import { agentBundleOptions } from '../../src/worker/agent-bundle-options';

const ROOT = resolve(__dirname, '..', '..');
const WORKFLOWS_PATH = join(ROOT, 'src', 'workflows', 'index.ts');

const log = (message: string): void => {
  process.stderr.write(`[global-setup] ${message}\n`);
};

function setEnv(name: string, value: string | number): void {
  process.env[name] = String(value);
}

async function bundleWorkflows(stateDir: string): Promise<void> {
  if (!existsSync(WORKFLOWS_PATH)) {
    log(`${WORKFLOWS_PATH} does not exist; no workflow bundle (${TEST_ENV.workflowBundle} stays unset)`);
    return;
  }
  const { bundleWorkflowCode, DefaultLogger } = await import('@temporalio/worker');
  const { code } = await bundleWorkflowCode({
    // As every bundle of the agent workflow: with its tracing interceptors and shared modules.
    ...agentBundleOptions(),
    workflowsPath: require.resolve(WORKFLOWS_PATH),
    logger: new DefaultLogger('WARN'),
  });
  const codePath = join(stateDir, 'workflow-bundle.js');
  writeFileSync(codePath, code);
  setEnv(TEST_ENV.workflowBundle, codePath);
  log(`bundled src/workflows/index.ts into ${codePath}`);
}

/** Last resort without a CLI: @temporalio/testing downloads one (needs internet); no restarts then. */
async function startDownloadedServer(state: GlobalTestState, port: number, dbFile: string): Promise<void> {
  log('no Temporal CLI found or installable; starting a dev server through @temporalio/testing (downloads it)');
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'cached-download', downloadDir: join(ROOT, '.tools', 'temporal-download') },
      ip: '127.0.0.1',
      port,
      dbFilename: dbFile,
      extraArgs: [
        ...SEARCH_ATTRIBUTE_FLAGS.flatMap((flag) => ['--search-attribute', flag]),
        ...['journal_mode=WAL', 'synchronous=OFF'].flatMap((pragma) => ['--sqlite-pragma', pragma]),
      ],
    },
  });
  state.fallback = env;
  setEnv(TEST_ENV.address, `127.0.0.1:${port}`);
}

async function startServer(state: GlobalTestState, stateDir: string): Promise<void> {
  const external = process.env.TEMPORAL_ADDRESS;
  if (external) {
    log(`TEMPORAL_ADDRESS=${external}: using that server, starting none (restartDevServer() is unavailable)`);
    setEnv(TEST_ENV.address, external);
    setEnv(TEST_ENV.namespace, process.env.TEMPORAL_NAMESPACE || 'default');
    return;
  }
  const [port, uiPort] = await findFreePorts(2);
  const dbFile = join(stateDir, 'temporal.sqlite');
  setEnv(TEST_ENV.namespace, 'default');
  setEnv(TEST_ENV.db, dbFile);
  setEnv(TEST_ENV.port, port);
  setEnv(TEST_ENV.uiPort, uiPort);
  const cliPath = findTemporalCli({ root: ROOT, install: true, log });
  if (!cliPath) return startDownloadedServer(state, port, dbFile);
  state.devServer = await startDevServer({ cliPath, port, uiPort, dbFile, headless: true, log });
  const pidFile = join(stateDir, 'dev-server.pid');
  writeFileSync(pidFile, String(state.devServer.pid));
  setEnv(TEST_ENV.cli, cliPath);
  setEnv(TEST_ENV.address, state.devServer.address);
  setEnv(TEST_ENV.pid, state.devServer.pid);
  setEnv(TEST_ENV.pidFile, pidFile);
}

function resolveTestServer(): void {
  let testServer: string | null = null;
  try {
    testServer = findTestServer({ root: ROOT, install: true, log });
  } catch (error) {
    log((error as Error).message);
  }
  if (testServer) setEnv(TEST_ENV.testServerPath, testServer);
  else log(`no time-skipping test server; ${TEST_ENV.testServerPath} stays unset`);
}

export default async function globalSetup(): Promise<void> {
  const stateDir = mkdtempSync(join(tmpdir(), 'durable-agent-test-'));
  setEnv(TEST_ENV.stateDir, stateDir);
  const state: GlobalTestState = {};
  (globalThis as Record<string, unknown>)[GLOBAL_STATE_KEY] = state;
  resolveTestServer();
  const [server, bundle] = await Promise.allSettled([startServer(state, stateDir), bundleWorkflows(stateDir)]);
  const failure = [server, bundle].find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) {
    await globalTeardown();
    throw failure.reason;
  }
}
