import { Connection } from '@temporalio/client';
import { connectWithin } from './connect-within';
import type { ConnectionSettings } from './connection-settings';

// grpc-js (the client's connection) goes through these proxies; a direct probe would not.
const GRPC_PROXY_VARS = ['grpc_proxy', 'https_proxy', 'http_proxy'];

/** How long the probe may hold back the real connection (on slow links they overlap). */
const PROBE_HEAD_START_MS = 250;

/**
 * The client's connection (grpc-js). On its own it retries until its deadline, then only says
 * "Failed to connect before the deadline"; and one closed while it retries keeps a timer until
 * then. A probe over the same TLS stack goes first and names the cause at once.
 */
export function connectClient(settings: ConnectionSettings): Promise<Connection> {
  let connection: Connection | undefined;
  const proxied = GRPC_PROXY_VARS.some((name) => process.env[name]);
  return connectWithin({
    settings,
    async connect() {
      // Its own deadline comes after ours, so the failure reported is ours, with the cause.
      connection = Connection.lazy({ ...settings.connectionOptions, connectTimeout: settings.connectTimeoutMs + 1_000 });
      await connection.ensureConnected();
      return connection;
    },
    close: (c) => c.close(),
    abandon: () => void connection?.close(),
    probe: proxied ? { mode: 'never' } : { mode: 'first', headStartMs: PROBE_HEAD_START_MS },
  });
}
