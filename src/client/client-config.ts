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
export function readClientConfig(env: NodeJS.ProcessEnv = process.env): Omit<ClientConfig, 'address' | 'namespace'> {
  return {
    taskQueue: env.TEMPORAL_TASK_QUEUE || 'durable-agent',
    webUiUrl: (env.TEMPORAL_UI_URL || 'http://localhost:8233').replace(/\/$/, ''),
  };
}

export function runWebUiLink(config: Pick<ClientConfig, 'webUiUrl' | 'namespace'>, workflowId: string, runId?: string): string {
  const id = encodeURIComponent(workflowId);
  const path = runId ? `${id}/${encodeURIComponent(runId)}/history` : id;
  return `${config.webUiUrl}/namespaces/${encodeURIComponent(config.namespace)}/workflows/${path}`;
}
