import { join } from 'node:path';
import { loadConnectionProfile } from '../connection/load-connection-profile';

interface DevServerHandle {
  address: string;
  uiUrl: string;
  stop(): Promise<void>;
}

// Plain CommonJS helpers shared with `npm start`, which runs them before any install.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const devServer = require('../../scripts/dev-server.cjs') as {
  isTemporalReachable(address: string, timeoutMs?: number): Promise<boolean>;
  startDevServer(options: Record<string, unknown>): Promise<DevServerHandle & { pid: number }>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const temporalCli = require('../../scripts/temporal-cli.cjs') as {
  findTemporalCli(options: Record<string, unknown>): string | null;
};

const ROOT = join(__dirname, '..', '..');

export interface DemoTemporal {
  address: string;
  uiUrl: string;
  /** Stops the server if the demo started it. */
  stop(): Promise<void>;
}

/**
 * The address Temporal's environment configuration names (TEMPORAL_ADDRESS or the config profile;
 * TLS and API key come along when the worker and client connect); else a server already on
 * 127.0.0.1:7233; else a dev server the demo starts.
 */
export async function temporalForDemo(log: (message: string) => void): Promise<DemoTemporal> {
  const given = loadConnectionProfile().address;
  if (given) return { address: given, uiUrl: process.env.TEMPORAL_UI_URL ?? 'http://localhost:8233', stop: async () => undefined };
  const local = '127.0.0.1:7233';
  if (await devServer.isTemporalReachable(local, 1000)) {
    log(`Using the Temporal server already running on ${local}.`);
    return { address: local, uiUrl: process.env.TEMPORAL_UI_URL ?? 'http://localhost:8233', stop: async () => undefined };
  }
  const cliPath = process.env.TEMPORAL_CLI_PATH || temporalCli.findTemporalCli({ root: ROOT, install: true, log });
  if (cliPath) {
    log(`Starting the Temporal dev server (${cliPath}); state persists in .temporal/.`);
    const server = await devServer.startDevServer({ cliPath, port: 7233, uiPort: 8233, dbFile: join(ROOT, '.temporal', 'dev.sqlite'), log });
    return { address: server.address, uiUrl: server.uiUrl, stop: () => server.stop() };
  }
  log('No Temporal CLI could be found or installed; downloading a dev server through @temporalio/testing.');
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({ server: { ip: '127.0.0.1', port: 7233, uiPort: 8233 } });
  return { address: local, uiUrl: 'http://localhost:8233', stop: () => env.teardown() };
}
