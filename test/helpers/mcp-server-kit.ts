import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { agents, mcpScripts } from '../fixtures/mcp-agents';
import { RUN_TOOLS } from '../../src/mcp-server/run-tools';
import { startAgentTestEnv, type AgentTestEnv } from './agent-test-env';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'src', 'cli', 'main.ts');
const MODULE = join(ROOT, 'test', 'fixtures', 'mcp-agents.ts');

export type ElicitHandler = (request: ElicitRequest, extra: { signal: AbortSignal }) => Promise<ElicitResult>;

export const textOf = (result: unknown, index = 0) => ((result as CallToolResult).content[index] as { text: string }).text;
export const textsOf = (result: unknown) => (result as CallToolResult).content.map((item) => (item as { text: string }).text);

/** `durable-agent mcp` reached with raw lines over stdio: what it answers, line by line, parsed. */
export interface RawStdio {
  send(line: string): void;
  /** The next line the server writes; fails after `timeoutMs` without one. */
  next(timeoutMs?: number): Promise<unknown>;
}

/**
 * A worker for test/fixtures/mcp-agents.ts and `durable-agent mcp` processes serving them (stdio
 * or HTTP), reached by the SDK's own Client or by raw messages; `stop` ends them all.
 */
export interface McpServerKit {
  env: AgentTestEnv;
  overStdio(elicit?: ElicitHandler): Promise<Client>;
  /** The client's transport as connected: a test may wrap its `onmessage`. */
  transportOf(client: Client): Transport;
  /** `durable-agent mcp --http 0` in its own process: its URL once it listens. */
  httpServer(extra?: string[], env?: Record<string, string>): Promise<{ url: string; process: ChildProcess }>;
  /** `durable-agent mcp ...` that is expected to exit: its code and stderr. */
  exitOf(extra: string[]): Promise<{ code: number | null; stderr: string }>;
  overHttp(url: string, token?: string, elicit?: ElicitHandler): Promise<Client>;
  rawStdio(): RawStdio;
  stop(): Promise<void>;
}

/** What tools/list gives a well-formed client: one tool per agent, fork_run and the run tools. */
export const LISTED_TOOLS = agents.length + 1 + RUN_TOOLS.length;

export async function startMcpServerKit(): Promise<McpServerKit> {
  const env = await startAgentTestEnv({ agents, byModel: mcpScripts });
  const cliArgs = ['--import', 'tsx', CLI, 'mcp', '--module', MODULE, '--address', process.env.TEMPORAL_TEST_ADDRESS!, '--task-queue', env.taskQueue];
  const clients: Client[] = [];
  const processes: ChildProcess[] = [];
  const transports = new Map<Client, Transport>();

  function newClient(elicit?: ElicitHandler): Client {
    const client = new Client({ name: 'durable-agent-test', version: '1.0.0' }, { capabilities: elicit ? { elicitation: { form: {} } } : {} });
    if (elicit) client.setRequestHandler(ElicitRequestSchema, (request, extra) => elicit(request, extra));
    clients.push(client);
    return client;
  }

  function serverProcess(extra: string[], env: Record<string, string> = {}, stdin: 'ignore' | 'pipe' = 'ignore'): ChildProcess {
    const child = spawn(process.execPath, [...cliArgs, ...extra], { cwd: ROOT, stdio: [stdin, 'pipe', 'pipe'], env: { ...process.env, ...env } });
    processes.push(child);
    return child;
  }

  return {
    env,
    async overStdio(elicit) {
      const client = newClient(elicit);
      const transport = new StdioClientTransport({ command: process.execPath, args: cliArgs, cwd: ROOT, env: process.env as Record<string, string>, stderr: 'pipe' });
      await client.connect(transport);
      transports.set(client, transport);
      return client;
    },
    transportOf: (client) => transports.get(client)!,
    async httpServer(extra = [], env = {}) {
      const child = serverProcess(['--http', '0', '--json', ...extra], env);
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        let err = '';
        child.stdout!.on('data', (d) => {
          out += d;
          const line = out.split('\n').find((l) => l.startsWith('{'));
          if (line) resolve((JSON.parse(line) as { url: string }).url);
        });
        child.stderr!.on('data', (d) => (err += d));
        child.once('exit', (code) => reject(new Error(`mcp --http exited (${code}): ${err}`)));
      });
      return { url, process: child };
    },
    async exitOf(extra) {
      const child = serverProcess(extra);
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      return { code, stderr };
    },
    async overHttp(url, token, elicit) {
      const client = newClient(elicit);
      const transport = new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {});
      await client.connect(transport);
      transports.set(client, transport);
      return client;
    },
    rawStdio() {
      const child = serverProcess([], {}, 'pipe');
      const lines: string[] = [];
      const waiters: ((line: string) => void)[] = [];
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const waiter = waiters.shift();
        if (waiter) waiter(line);
        else lines.push(line);
      });
      return {
        send: (line) => child.stdin!.write(`${line}\n`),
        next: (timeoutMs = 30_000) =>
          new Promise<unknown>((resolve, reject) => {
            const ready = lines.shift();
            if (ready !== undefined) return resolve(JSON.parse(ready));
            const timer = setTimeout(() => reject(new Error(`no answer from the server within ${timeoutMs} ms`)), timeoutMs);
            waiters.push((line) => {
              clearTimeout(timer);
              resolve(JSON.parse(line));
            });
          }),
      };
    },
    async stop() {
      for (const client of clients) await client.close().catch(() => undefined);
      for (const child of processes) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await env.stop();
    },
  };
}

/** A message the client's transport received, before the SDK's Protocol sees it; returning false drops it. */
export function interceptIncoming(transport: Transport, keep: (message: JSONRPCMessage) => boolean): void {
  const deliver = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    if (keep(message)) deliver(message, extra);
  };
}
