import type { PermissionBehavior } from '../common/permissions';

interface McpServerSettings {
  enableTools?: string[];
  disableTools?: string[];
  /** Request timeout of one tool call. */
  timeoutMs?: number;
  permission?: PermissionBehavior;
  prefix: boolean;
}

export interface StdioServerConfig extends McpServerSettings {
  transport: 'stdio';
  command: string;
  args: string[];
  /** Added to a minimal inherited environment (PATH, HOME, USER, SHELL, TERM, LOGNAME). */
  env: Record<string, string>;
  cwd?: string;
}

export interface HttpServerConfig extends McpServerSettings {
  transport: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
}

/** One MCP server, validated, with `${VAR}` substituted and durations in milliseconds. */
export type McpServerConfig = StdioServerConfig | HttpServerConfig;

/** By server name, in the order they were written. */
export type McpServersConfig = Record<string, McpServerConfig>;

export interface ToolsConfig {
  /** The file it was read from, when it came from a file. */
  path?: string;
  allow: string[];
  deny: string[];
  mcpServers: McpServersConfig;
}
