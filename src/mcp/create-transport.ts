import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from './tools-config-types';

export interface TransportHooks {
  onStderr(chunk: string): void;
  onSpawn(pid: number): void;
  onExit(pid: number): void;
}

export interface ServerTransport {
  transport: Transport;
  /** Ends the server side of the session before the transport closes (HTTP only). */
  terminateSession(): Promise<void>;
}

export function createTransport(config: McpServerConfig, hooks: TransportHooks): ServerTransport {
  if (config.transport === 'stdio') return createStdioTransport(config, hooks);
  const url = new URL(config.url);
  const requestInit = { headers: config.headers };
  if (config.transport === 'sse') {
    return { transport: new SSEClientTransport(url, { requestInit }), terminateSession: async () => {} };
  }
  const transport = new StreamableHTTPClientTransport(url, { requestInit });
  return { transport, terminateSession: () => transport.terminateSession() };
}

function createStdioTransport(config: Extract<McpServerConfig, { transport: 'stdio' }>, hooks: TransportHooks): ServerTransport {
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args,
    env: config.env,
    ...(config.cwd ? { cwd: config.cwd } : {}),
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => hooks.onStderr(chunk.toString('utf8')));

  // The SDK exposes the child's pid only after start(); wrap start so the pid is tracked
  // from the moment the child exists, before initialization can hang or fail.
  let pid: number | undefined;
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    pid = transport.pid ?? undefined;
    if (pid !== undefined) hooks.onSpawn(pid);
  };
  // Client.connect chains this handler before its own, so it runs whenever the child goes away.
  transport.onclose = () => {
    if (pid !== undefined) hooks.onExit(pid);
  };
  return { transport, terminateSession: async () => {} };
}
