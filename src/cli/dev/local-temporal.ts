import { webUiUrlFor } from '../../client/client-config';
import { loadConnectionProfile } from '../../connection/load-connection-profile';

// Plain CommonJS helpers shared with `npm start`, which runs them before any install.
const devServer = require('../../../scripts/dev-server.cjs') as typeof import('../../../scripts/dev-server.cjs');
const temporalCli = require('../../../scripts/temporal-cli.cjs') as typeof import('../../../scripts/temporal-cli.cjs');

export interface LocalTemporal {
  address: string;
  uiUrl: string;
  /** The dev server's process when this started it; undefined when it joined a server already running. */
  pid?: number;
  /** Stops the server if this started it. */
  stop(): Promise<void>;
}

export interface LocalTemporalOptions {
  /** Where a server is looked for on 127.0.0.1, and started when there is none (7233). */
  port: number;
  uiPort: number;
  /** The dev server's SQLite file: its runs outlive a restart. */
  dbFile: string;
  /** The folder whose `.tools/` holds the pinned Temporal CLI once installed. */
  toolsRoot: string;
  log(message: string): void;
}

const joined = (address: string): LocalTemporal => ({ address, uiUrl: process.env.TEMPORAL_UI_URL?.replace(/\/$/, '') || webUiUrlFor(address), stop: async () => undefined });

/**
 * The server a local run uses: the address Temporal's environment configuration names
 * (TEMPORAL_ADDRESS or a profile of the config file); else one already listening on 127.0.0.1:PORT;
 * else a dev server started from the Temporal CLI (TEMPORAL_CLI, the PATH, or the pinned one,
 * installed into TOOLS_ROOT/.tools). Each case says which address and why. Undefined when there is
 * no server and no CLI to start one.
 */
export async function localTemporal(options: LocalTemporalOptions): Promise<LocalTemporal | undefined> {
  const { log } = options;
  const given = loadConnectionProfile().address;
  if (given) {
    const source = process.env.TEMPORAL_ADDRESS ? 'TEMPORAL_ADDRESS' : "the Temporal config file's profile";
    log(`Joining the Temporal server at ${given} (${source}): none is started.`);
    return joined(given);
  }
  const local = `127.0.0.1:${options.port}`;
  if (await devServer.isTemporalReachable(local, 1000)) {
    log(`Joining the Temporal server already running on ${local}: none is started.`);
    return joined(local);
  }
  const cliPath = temporalCli.findTemporalCli({ root: options.toolsRoot, install: true, log });
  if (!cliPath) return undefined;
  log(`Starting a Temporal dev server (${cliPath}); its state persists in ${options.dbFile}.`);
  const server = await devServer.startDevServer({ cliPath, port: options.port, uiPort: options.uiPort, dbFile: options.dbFile, log });
  return { address: server.address, uiUrl: server.uiUrl ?? `http://localhost:${options.uiPort}`, pid: server.pid, stop: () => server.stop() };
}
