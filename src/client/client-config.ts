export interface ClientConfig {
  /** The Temporal frontend the client is connected to (resolved from overrides, TEMPORAL_ADDRESS and the config profile). */
  address: string;
  namespace: string;
  taskQueue: string;
  /** Base address of the Temporal Web UI, for the links the client prints. */
  webUiUrl: string;
  /** Requests larger than this many bytes of JSON are refused before they are sent (default 1 MiB). */
  maxPayloadBytes?: number;
}

/** The client's own settings; address, namespace, TLS and API key come from resolveConnectionSettings. */
export function readClientConfig(env: NodeJS.ProcessEnv = process.env): Omit<ClientConfig, 'address' | 'namespace' | 'webUiUrl'> & { webUiUrl?: string } {
  const ui = env.TEMPORAL_UI_URL?.trim();
  return { taskQueue: env.TEMPORAL_TASK_QUEUE || 'durable-agent', ...(ui ? { webUiUrl: ui.replace(/\/$/, '') } : {}) };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * The Web UI of the server at `address`, when TEMPORAL_UI_URL does not say: Temporal Cloud's for a
 * Cloud endpoint; a dev server's (its frontend port + 1000, `temporal server start-dev`'s default)
 * on loopback; port 8080 (the UI image's default) on the frontend's host otherwise.
 */
export function webUiUrlFor(address: string): string {
  const at = address.lastIndexOf(':');
  const host = at > 0 ? address.slice(0, at) : address;
  const port = Number(address.slice(at + 1));
  if (/\.tmprl\.cloud$/i.test(host)) return 'https://cloud.temporal.io';
  if (LOOPBACK.has(host)) return `http://localhost:${Number.isInteger(port) && port > 0 ? port + 1000 : 8233}`;
  return `http://${host}:8080`;
}

/** When the UI's address was guessed from a frontend that is neither local nor Temporal Cloud: how to set the right one. */
export function webUiHint(address: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.TEMPORAL_UI_URL?.trim()) return undefined;
  const host = address.slice(0, Math.max(0, address.lastIndexOf(':'))) || address;
  if (LOOPBACK.has(host) || /\.tmprl\.cloud$/i.test(host)) return undefined;
  return `the Web UI's address is a guess from ${address}: set TEMPORAL_UI_URL to your UI's`;
}

export function runWebUiLink(config: Pick<ClientConfig, 'webUiUrl' | 'namespace'>, workflowId: string, runId?: string): string {
  const id = encodeURIComponent(workflowId);
  const path = runId ? `${id}/${encodeURIComponent(runId)}/history` : id;
  return `${config.webUiUrl}/namespaces/${encodeURIComponent(config.namespace)}/workflows/${path}`;
}
