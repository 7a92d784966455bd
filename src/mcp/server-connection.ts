import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { backoffDelayMs, type BackoffOptions } from './backoff';
import { reapChildren, trackChildProcess, untrackChildProcess } from './child-process-guard';
import { createTransport, type ServerTransport } from './create-transport';
import { describeError } from './describe-error';
import { listAllTools, toToolInfo } from './list-tools';
import { McpCallTimeoutError, McpConnectionLostError, McpProtocolError, McpServerUnavailableError } from './mcp-errors';
import type { McpCallOptions, McpLogger, McpServerState, McpServerStatus, McpToolInfo } from './mcp-types';
import { createStderrTail, type StderrTail } from './stderr-tail';
import type { McpServerConfig } from './tools-config-types';

export interface ServerConnectionOptions {
  name: string;
  config: McpServerConfig;
  log: McpLogger;
  clientInfo: { name: string; version: string };
  requestTimeoutMs: number;
  initTimeoutMs: number;
  backoff: BackoffOptions;
  onStatusChange?: (status: McpServerStatus) => void;
}

interface Session {
  generation: number;
  client: Client;
  transport: ServerTransport;
  stderr: StderrTail;
}

const CHILD_EXIT_GRACE_MS = 5000;

/**
 * One pooled connection to one MCP server: connects, lists tools, reconnects with backoff when
 * it fails or breaks, and routes calls. Never throws from connect(); calls throw typed errors.
 */
export class ServerConnection {
  private state: McpServerState = 'idle';
  private session?: Session;
  private generation = 0;
  private connecting?: Promise<boolean>;
  private retryTimer?: NodeJS.Timeout;
  private nextRetryAt?: number;
  private failedAttempts = 0;
  private lastError?: string;
  private lastStderr?: string;
  private toolList: McpToolInfo[] = [];
  private readonly liveChildren = new Set<number>();

  constructor(private readonly options: ServerConnectionOptions) {}

  get name(): string {
    return this.options.name;
  }

  /** Connects now unless connected; joins an attempt in flight. Resolves to whether it is connected. */
  connect(): Promise<boolean> {
    if (this.state === 'closed') return Promise.resolve(false);
    if (this.state === 'connected') return Promise.resolve(true);
    this.connecting ??= this.attempt().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  tools(): McpToolInfo[] {
    return this.toolList;
  }

  status(): McpServerStatus {
    const pid = [...this.liveChildren].at(-1);
    return {
      server: this.name,
      transport: this.options.config.transport,
      state: this.state,
      toolCount: this.toolList.length,
      failedAttempts: this.failedAttempts,
      ...(this.state !== 'connected' && this.lastError ? { error: this.lastError } : {}),
      ...(this.state !== 'connected' && this.lastStderr ? { stderr: this.lastStderr } : {}),
      ...(this.retryTimer && this.nextRetryAt ? { nextRetryAt: new Date(this.nextRetryAt).toISOString() } : {}),
      ...(pid !== undefined ? { pid } : {}),
    };
  }

  async callTool(tool: string, args: Record<string, unknown>, options: McpCallOptions = {}): Promise<CallToolResult> {
    const { signal } = options;
    signal?.throwIfAborted();
    if (!(await this.connect())) {
      throw new McpServerUnavailableError(this.name, this.unavailableReason());
    }
    signal?.throwIfAborted();
    const session = this.session!;
    const timeoutMs = options.timeoutMs ?? this.options.config.timeoutMs ?? this.options.requestTimeoutMs;
    // A per-call controller, so the SDK's abort listener dies with the call instead of piling
    // up on a long-lived run signal.
    const controller = new AbortController();
    const forwardAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', forwardAbort, { once: true });
    try {
      const result = await session.client.callTool(
        { name: tool, arguments: args, ...(options.meta ? { _meta: options.meta } : {}) },
        CallToolResultSchema,
        {
          signal: controller.signal,
          timeout: timeoutMs,
          ...(options.onProgress
            ? {
                onprogress: ({ progress, total, message }) =>
                  options.onProgress!({ progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) }),
              }
            : {}),
        },
      );
      return result as CallToolResult;
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      if (session.generation !== this.generation || this.state !== 'connected') {
        throw new McpConnectionLostError(this.name, tool, this.lastError ?? describeError(error));
      }
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        throw new McpCallTimeoutError(this.name, tool, timeoutMs);
      }
      if (error instanceof McpError || (error as { name?: unknown } | null)?.name === 'ZodError') {
        throw new McpProtocolError(this.name, tool, describeError(error), error instanceof McpError ? error.code : undefined);
      }
      // Anything else came from the transport (fetch failed, HTTP 4xx/5xx, write after exit).
      this.lose(session, describeError(error));
      throw new McpConnectionLostError(this.name, tool, describeError(error));
    } finally {
      signal?.removeEventListener('abort', forwardAbort);
    }
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.clearRetry();
    const session = this.session;
    this.session = undefined;
    if (session) await this.closeSession(session, true);
    await this.connecting;
    await reapChildren(this.liveChildren, CHILD_EXIT_GRACE_MS);
    this.emitStatus();
  }

  private async attempt(): Promise<boolean> {
    this.clearRetry();
    const generation = ++this.generation;
    const { name, log } = this.options;
    const stderr = createStderrTail();
    this.state = 'connecting';
    this.emitStatus();
    let session: Session | undefined;
    try {
      session = this.openSession(generation, stderr);
      this.session = session;
      await session.client.connect(session.transport.transport, { timeout: this.options.initTimeoutMs });
      const tools = await listAllTools(session.client, name, this.options.initTimeoutMs);
      if (this.isStale(generation)) {
        await this.closeSession(session, true);
        return false;
      }
      this.toolList = tools;
      this.state = 'connected';
      this.failedAttempts = 0;
      this.lastError = undefined;
      this.lastStderr = undefined;
      log.info(`MCP server '${name}' connected`, { server: name, tools: this.toolList.length });
      this.emitStatus();
      return true;
    } catch (error) {
      if (session && this.session === session) this.session = undefined;
      // Let the last stderr chunks of a child that just died arrive before reading the tail.
      await new Promise((resolve) => setImmediate(resolve));
      if (session) await this.closeSession(session, false);
      if (this.isStale(generation)) return false;
      this.failedAttempts++;
      this.lastError = `failed to start: ${this.describeStartFailure(error)}`;
      this.lastStderr = stderr.text() || undefined;
      this.state = 'failed';
      const delay = this.scheduleRetry();
      log.warn(`MCP server '${name}' ${this.lastError}; retrying in ${delay} ms`, {
        server: name,
        attempt: this.failedAttempts,
        ...(this.lastStderr ? { stderr: this.lastStderr } : {}),
      });
      this.emitStatus();
      return false;
    }
  }

  private openSession(generation: number, stderr: StderrTail): Session {
    const { name, log } = this.options;
    const transport = createTransport(this.options.config, {
      onStderr: (chunk) => {
        stderr.push(chunk);
        log.debug(`MCP server '${name}' stderr: ${chunk.trimEnd()}`, { server: name });
      },
      onSpawn: (pid) => {
        this.liveChildren.add(pid);
        trackChildProcess(pid);
      },
      onExit: (pid) => {
        this.liveChildren.delete(pid);
        untrackChildProcess(pid);
      },
    });
    const client = new Client(this.options.clientInfo, {
      capabilities: {},
      listChanged: {
        tools: {
          onChanged: (error, tools) => {
            if (error || !tools || generation !== this.generation) return;
            this.toolList = tools.map((tool) => toToolInfo(name, tool));
            log.info(`MCP server '${name}' changed its tools`, { server: name, tools: this.toolList.length });
            this.emitStatus();
          },
        },
      },
    });
    const session: Session = { generation, client, transport, stderr };
    client.onclose = () => this.lose(session, 'connection closed');
    client.onerror = (error) => log.debug(`MCP server '${name}' transport error: ${error.message}`, { server: name });
    return session;
  }

  /** Closed, or superseded by a newer attempt while this one awaited. */
  private isStale(generation: number): boolean {
    return this.state === 'closed' || generation !== this.generation;
  }

  /** A working connection broke: forget it and reconnect in the background right away. */
  private lose(session: Session, reason: string): void {
    if (session.generation !== this.generation || this.state !== 'connected') return;
    this.state = 'failed';
    this.session = undefined;
    this.lastError = `disconnected: ${reason}`;
    this.lastStderr = session.stderr.text() || undefined;
    this.options.log.warn(`MCP server '${this.name}' ${this.lastError}; reconnecting`, {
      server: this.name,
      ...(this.lastStderr ? { stderr: this.lastStderr } : {}),
    });
    void this.closeSession(session, false);
    this.scheduleRetry(0);
    this.emitStatus();
  }

  private scheduleRetry(delayMs = backoffDelayMs(this.failedAttempts, this.options.backoff)): number {
    this.clearRetry();
    if (this.state === 'closed') return delayMs;
    this.nextRetryAt = Date.now() + delayMs;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, delayMs);
    this.retryTimer.unref();
    return delayMs;
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.nextRetryAt = undefined;
  }

  private async closeSession(session: Session, terminate: boolean): Promise<void> {
    if (terminate) await withTimeout(session.transport.terminateSession(), 2000).catch(() => {});
    await session.client.close().catch(() => {});
  }

  private describeStartFailure(error: unknown): string {
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return this.options.config.transport === 'stdio'
        ? 'the server process exited during initialization'
        : 'the server closed the connection during initialization';
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return `no answer within ${this.options.initTimeoutMs} ms while connecting`;
    }
    return describeError(error);
  }

  private unavailableReason(): string {
    if (this.state === 'closed') return 'the MCP manager is closed';
    const parts = [this.lastError ?? 'not connected'];
    if (this.lastStderr) parts.push(`stderr: ${lastLines(this.lastStderr, 5)}`);
    return parts.join('; ');
  }

  private emitStatus(): void {
    this.options.onStatusChange?.(this.status());
  }
}

function lastLines(text: string, count: number): string {
  return text.split('\n').slice(-count).join('\n');
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
