import { untilStopped } from '../until-stopped';
import { stringOption, UsageError, type CliCommand, type CommandContext } from '../command';
import { listenPortOption } from '../listen-port';
import { allowedOriginsOf, allowOriginFlags, allowOriginOption } from '../allowed-origins-option';
import { ALLOWED_ORIGINS_ENV } from '../../mcp-server/origin-policy';

const DETAILS = [
  'An MCP server backed by Temporal: each agent of the module is a tool (input { prompt, sessionId?, userId? }), plus',
  'list_runs, run_state, run_events, list_pending, approve_call, deny_call, submit_result and cancel_run.',
  'An agent tool called as an MCP task returns at once; the task is the run (its id is the workflow id), so it',
  'outlives the connection and this process. Called without a task, the tool follows the run to its end, with',
  'progress notifications, and asks for approvals as elicitations when the client supports them.',
  'Without --http it speaks over stdin/stdout (what desktop clients start); with --http PORT it serves',
  'streamable HTTP at http://127.0.0.1:PORT/mcp. Whoever reaches it can start runs and answer approvals:',
  'keep it on loopback, or set --token and put TLS in front of it. A request with an Origin header (a',
  'browser page) is refused with 403 unless the origin is a loopback one or allowed with --allow-origin',
  '(or AGENT_MCP_ALLOWED_ORIGINS, comma-separated); requests without one (non-browser clients) pass.',
  'An approval form stays open for as long as the client keeps its tool call open (no timeout); one',
  'answered elsewhere meanwhile is withdrawn, and a late answer is refused with a message saying why.',
  'A prompt over the payload limit (1 MiB of JSON by default) is refused before a run starts. Malformed',
  'JSON-RPC gets a JSON-RPC error (-32700, -32600); batches are refused (MCP 2025-06-18 removed them).',
  'Runs until its input ends or Ctrl-C.',
].join('\n');


async function agentsOf(ctx: CommandContext) {
  const { commandAgentsSource, loadCommandAgents } = require('../agents-source') as typeof import('../agents-source');
  const { readWorkerConfig } = require('../../worker/config') as typeof import('../../worker/config');
  const { withSubAgents } = require('../../toolkit/agent-registry') as typeof import('../../toolkit/agent-registry');
  const loaded = await loadCommandAgents(commandAgentsSource(ctx), readWorkerConfig().workspace);
  return withSubAgents(loaded.agents);
}

export const mcpCommand: CliCommand = {
  name: 'mcp',
  usage: 'mcp (--module PATH | --demo) [--http PORT] [--host H] [--token TOKEN] [--allow-origin ORIGIN]...',
  summary: 'Serve the agents as an MCP server (stdio, or streamable HTTP with --http): agent tools run as durable runs and MCP tasks, approvals as elicitations.',
  details: DETAILS,
  options: {
    http: { type: 'string', valueName: 'PORT', description: 'serve streamable HTTP on this port (0 picks a free one) instead of stdio' },
    host: { type: 'string', valueName: 'H', description: 'address to listen on with --http; anything but loopback exposes the agents to the network', defaultText: '127.0.0.1' },
    token: { type: 'string', valueName: 'TOKEN', description: 'with --http: require `Authorization: Bearer TOKEN` on every request', env: 'AGENT_MCP_TOKEN' },
    'allow-origin': allowOriginOption(ALLOWED_ORIGINS_ENV, 'with --http: '),
    module: { type: 'string', valueName: 'PATH', description: 'the module whose agents become tools', env: 'AGENT_MODULE' },
    demo: { type: 'boolean', description: 'the demo agents instead' },
  },
  examples: [
    'mcp --module ./agents.ts',
    'mcp --module ./dist/agents.js --task-queue agents',
    'mcp --module ./agents.ts --http 8787 --token "$(openssl rand -hex 24)"',
    'mcp --module ./agents.ts --http 8787 --allow-origin https://app.example.com',
  ],
  async run(ctx) {
    const port = listenPortOption(ctx, 'http');
    const token = stringOption(ctx, 'token') ?? (process.env.AGENT_MCP_TOKEN || undefined);
    if (port === undefined && (stringOption(ctx, 'host') || stringOption(ctx, 'token') || allowOriginFlags(ctx))) {
      throw new UsageError('--host, --token and --allow-origin apply to --http only');
    }
    const allowedOrigins = allowedOriginsOf(ctx, ALLOWED_ORIGINS_ENV);
    const { createAgentMcpServer } = require('../../mcp-server/agent-mcp-server') as typeof import('../../mcp-server/agent-mcp-server');
    const { mcpAgentOf } = require('../../mcp-server/mcp-agents') as typeof import('../../mcp-server/mcp-agents');
    const agents = (await agentsOf(ctx)).map(mcpAgentOf);
    const client = await ctx.connect();
    const makeServer = () => createAgentMcpServer({ client, agents });
    if (port === undefined) {
      const { StdioTransport } = require('../../mcp-server/stdio-transport') as typeof import('../../mcp-server/stdio-transport');
      const server = makeServer();
      const closed = new Promise<void>((resolve) => {
        process.stdin.once('end', resolve);
        process.stdin.once('close', resolve);
      });
      await server.connect(new StdioTransport());
      ctx.output.err(`durable-agent MCP server on stdio: ${agents.length} agent(s): ${agents.map((a) => a.name).join(', ')}`);
      await untilStopped(closed);
      await server.server.close().catch(() => undefined);
      return 0;
    }
    const { serveMcpHttp } = require('../../mcp-server/serve-http') as typeof import('../../mcp-server/serve-http');
    const { isLoopbackHost } = require('../../codec/codec-server-access') as typeof import('../../codec/codec-server-access');
    const host = stringOption(ctx, 'host');
    const http = await serveMcpHttp(makeServer, { port, ...(host ? { host } : {}), ...(token ? { token } : {}), allowedOrigins });
    if (!isLoopbackHost(http.host) && !token) ctx.output.err(`Warning: listening on ${http.host} without --token: anyone who reaches ${http.url} can start runs and answer approvals.`);
    ctx.output.out(ctx.json ? JSON.stringify({ url: http.url, host: http.host, port: http.port, token: Boolean(token) }) : `durable-agent MCP server on ${http.url} (${agents.length} agent(s))`);
    await untilStopped();
    await http.close();
    return 0;
  },
};
