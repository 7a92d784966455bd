import type { Logger } from '@temporalio/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchema } from '../common/tools';

/** What the manager logs through: Temporal's logger fits, so does any console-like object with meta. */
export type McpLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool as an MCP server lists it. */
export interface McpToolInfo {
  server: string;
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: McpToolAnnotations;
  /** 'required' tools can only run as MCP tasks, which this client does not do. */
  taskSupport?: 'forbidden' | 'optional' | 'required';
}

/** idle: not started; failed: not connected, retrying in the background. */
export type McpServerState = 'idle' | 'connecting' | 'connected' | 'failed' | 'closed';

export interface McpServerStatus {
  server: string;
  transport: 'stdio' | 'http' | 'sse';
  state: McpServerState;
  /** Tools listed by the last successful connection. */
  toolCount: number;
  /** Why the server is not connected (the last failure). */
  error?: string;
  /** The last lines the stdio server wrote to stderr before it failed. */
  stderr?: string;
  /** Failed connection attempts since the last success. */
  failedAttempts: number;
  /** When the next background attempt is due (ISO time). */
  nextRetryAt?: string;
  /** The stdio child's process id while it runs. */
  pid?: number;
}

export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface McpCallOptions {
  /** Aborting cancels the call (the server gets notifications/cancelled). */
  signal?: AbortSignal;
  /** Request timeout; the server's `timeout`, else the manager's default (120 s). */
  timeoutMs?: number;
  onProgress?: (progress: McpProgress) => void;
  /** Sent as the request's `_meta`. */
  meta?: Record<string, unknown>;
}

export type McpCallResult = CallToolResult;

export interface McpManager {
  /** Connects every server in parallel and lists its tools. Never throws for a bad server. */
  start(): Promise<void>;
  serverStatus(): McpServerStatus[];
  /** Tools of every server that has connected, as last listed. */
  tools(): McpToolInfo[];
  /**
   * Calls a tool over the server's pooled connection, reconnecting first when it is broken.
   * Throws McpServerUnavailableError, McpConnectionLostError, McpCallTimeoutError or
   * McpProtocolError (see mcp-errors.ts), or the signal's reason when aborted.
   */
  callTool(server: string, tool: string, args: Record<string, unknown>, options?: McpCallOptions): Promise<McpCallResult>;
  /** Closes every connection; stdio children are stopped. */
  close(): Promise<void>;
}
