import { PACKAGE_VERSION } from '../common/package-version';
import { DEFAULT_RECONNECT_BACKOFF, type BackoffOptions } from './backoff';
import { McpServerUnavailableError } from './mcp-errors';
import type { McpLogger, McpManager, McpServerStatus } from './mcp-types';
import { ServerConnection } from './server-connection';
import type { McpServersConfig } from './tools-config-types';

export const DEFAULT_MCP_REQUEST_TIMEOUT_MS = 120_000;
export const DEFAULT_MCP_INIT_TIMEOUT_MS = 30_000;

export interface McpManagerOptions {
  /** From loadToolsConfig(...).mcpServers or resolveMcpServers(...). */
  servers: McpServersConfig;
  log: McpLogger;
  /** Sent to servers in `initialize`. Default 'durable-agent'. */
  clientName?: string;
  clientVersion?: string;
  /** Default request timeout of a tool call when the server sets none. 120 s. */
  requestTimeoutMs?: number;
  /** Timeout of connecting, initializing and listing tools. 30 s. */
  initTimeoutMs?: number;
  /** Background reconnection of failed servers. 1 s doubling up to 60 s. */
  reconnect?: Partial<BackoffOptions>;
  /** Called whenever a server's state changes (connected, failed, tools changed, closed). */
  onStatusChange?: (status: McpServerStatus) => void;
}

/** One pooled connection per configured server, shared by every call on this worker. */
export function createMcpManager(options: McpManagerOptions): McpManager {
  const backoff = { ...DEFAULT_RECONNECT_BACKOFF, ...options.reconnect };
  const connections = new Map<string, ServerConnection>();
  for (const [name, config] of Object.entries(options.servers)) {
    connections.set(
      name,
      new ServerConnection({
        name,
        config,
        log: options.log,
        clientInfo: { name: options.clientName ?? 'durable-agent', version: options.clientVersion ?? PACKAGE_VERSION },
        requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_MCP_REQUEST_TIMEOUT_MS,
        initTimeoutMs: options.initTimeoutMs ?? DEFAULT_MCP_INIT_TIMEOUT_MS,
        backoff,
        ...(options.onStatusChange ? { onStatusChange: options.onStatusChange } : {}),
      }),
    );
  }

  return {
    async start() {
      await Promise.all([...connections.values()].map((connection) => connection.connect()));
    },
    serverStatus() {
      return [...connections.values()].map((connection) => connection.status());
    },
    tools() {
      return [...connections.values()].flatMap((connection) => connection.tools());
    },
    async callTool(server, tool, args, callOptions) {
      const connection = connections.get(server);
      if (!connection) throw new McpServerUnavailableError(server, 'no MCP server of that name is configured');
      return connection.callTool(tool, args, callOptions);
    },
    async close() {
      await Promise.all([...connections.values()].map((connection) => connection.close()));
    },
  };
}
