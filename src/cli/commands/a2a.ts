import { untilStopped } from '../until-stopped';
import { stringOption, UsageError, type CliCommand, type CommandContext } from '../command';
import { listenPortOption } from '../listen-port';
import { allowedOriginsOf, allowOriginOption } from '../allowed-origins-option';

const DEFAULT_PORT = 8792;
const TOKEN_ENV = 'AGENT_A2A_TOKEN';
import { A2A_ALLOWED_ORIGINS_ENV as ORIGINS_ENV } from '../../a2a/allowed-origins';

const DETAILS = [
  'An A2A server (Agent2Agent protocol, JSON-RPC, A2A 1.0 and 0.3) backed by Temporal: each agent of the module is an',
  'A2A agent at http://HOST:PORT/agents/NAME/, its card at .../agents/NAME/.well-known/agent-card.json (and at',
  '/.well-known/agent-card.json when the module has one agent; GET /agents lists them). A message starts a run; the',
  'task is the run (its id is the workflow id), so it outlives the connection and this process: GetTask, CancelTask',
  'and SubscribeToTask (reconnecting to a stream) are answered from Temporal by any server process.',
  'A call that needs a person makes the task input-required, its status naming the tool and its arguments; the next',
  'message on that task answers it: the text "approve" or "deny: reason", or a data part { "approve": true } /',
  '{ "deny": "reason" } (an external tool\'s result: { "result": "..." }). Anything else is refused and changes',
  'nothing. A message for a working task is added to what its run reads next (steering); a message in a context',
  '(contextId, no taskId) whose last task completed forks that run, so the conversation goes on in a new task.',
  'Whoever reaches it can start runs and answer approvals: keep it on loopback, or set --token and put TLS in front',
  'of it (the cards stay readable without the token and declare the bearer scheme). A request with an Origin header',
  `(a browser page) is refused with 403 unless the origin is a loopback one or allowed with --allow-origin (or ${ORIGINS_ENV}).`,
  'Runs until Ctrl-C.',
].join('\n');

function publicUrlOf(ctx: CommandContext): string | undefined {
  const text = stringOption(ctx, 'public-url');
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--public-url must be an absolute http(s) URL, not '${text}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--public-url must be an http(s) URL, not '${text}'`);
  if (url.search || url.hash) throw new UsageError(`--public-url takes no query or fragment: '${text}'`);
  return url.href;
}

async function agentsOf(ctx: CommandContext) {
  const { commandAgentsSource, loadCommandAgents } = require('../agents-source') as typeof import('../agents-source');
  const { readWorkerConfig } = require('../../worker/config') as typeof import('../../worker/config');
  const { withSubAgents } = require('../../toolkit/agent-registry') as typeof import('../../toolkit/agent-registry');
  const loaded = await loadCommandAgents(commandAgentsSource(ctx), readWorkerConfig().workspace);
  return withSubAgents(loaded.agents);
}

/** The server, whose A2A SDK requires the ESM-only `jose`: Node 20.19 and later load it, older ones refuse (said so, not as a stack). */
function loadServer(): typeof import('../../a2a/serve-http') {
  try {
    return require('../../a2a/serve-http') as typeof import('../../a2a/serve-http');
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_REQUIRE_ESM') throw new Error(`durable-agent a2a needs Node 20.19 or later (this is ${process.version}): the A2A SDK loads an ES module.`);
    throw error;
  }
}

export const a2aCommand: CliCommand = {
  name: 'a2a',
  usage: 'a2a (--module PATH | --demo) [--port PORT] [--host H] [--token TOKEN] [--allow-origin ORIGIN]... [--public-url URL]',
  summary: 'Serve the agents over the Agent2Agent protocol (A2A): a task is a durable run, approvals are input-required.',
  details: DETAILS,
  options: {
    port: { type: 'string', valueName: 'PORT', description: 'port to listen on (0 picks a free one)', defaultText: String(DEFAULT_PORT) },
    host: { type: 'string', valueName: 'H', description: 'address to listen on; anything but loopback exposes the agents to the network', defaultText: '127.0.0.1' },
    token: { type: 'string', valueName: 'TOKEN', description: 'require `Authorization: Bearer TOKEN` on every A2A call', env: TOKEN_ENV },
    'allow-origin': allowOriginOption(ORIGINS_ENV),
    'public-url': { type: 'string', valueName: 'URL', description: 'the base URL clients reach the server at, written in the cards (behind a proxy or TLS)', defaultText: 'http://HOST:PORT' },
    module: { type: 'string', valueName: 'PATH', description: 'the module whose agents are served', env: 'AGENT_MODULE' },
    demo: { type: 'boolean', description: 'the demo agents instead' },
  },
  examples: [
    'a2a --module ./agents.ts',
    'a2a --module ./dist/agents.js --task-queue agents --port 9000',
    'a2a --module ./agents.ts --host 0.0.0.0 --token "$(openssl rand -hex 24)" --public-url https://agents.example.com',
  ],
  async run(ctx) {
    const port = listenPortOption(ctx, 'port') ?? DEFAULT_PORT;
    const token = stringOption(ctx, 'token') ?? (process.env[TOKEN_ENV] || undefined);
    const allowedOrigins = allowedOriginsOf(ctx, ORIGINS_ENV);
    const publicUrl = publicUrlOf(ctx);
    const agents = await agentsOf(ctx);
    if (agents.length === 0) throw new UsageError('the module has no agents to serve');
    const client = await ctx.connect();
    const { serveA2aHttp } = loadServer();
    const { isLoopbackHost } = require('../../http') as typeof import('../../http');
    const host = stringOption(ctx, 'host');
    const server = await serveA2aHttp(client, agents, { port, ...(host ? { host } : {}), ...(token ? { token } : {}), allowedOrigins, ...(publicUrl ? { publicUrl } : {}) });
    if (!isLoopbackHost(server.host) && !token) ctx.output.err(`Warning: listening on ${server.host} without --token: anyone who reaches ${server.url} can start runs and answer approvals.`);
    if (ctx.json) ctx.output.out(JSON.stringify({ url: server.url, host: server.host, port: server.port, token: Boolean(token), agents: server.agentUrls }));
    else {
      ctx.output.out(`durable-agent A2A server on ${server.url} (${agents.length} agent(s)):`);
      for (const [name, url] of Object.entries(server.agentUrls)) ctx.output.out(`  ${name}  ${url}  (card: ${url}.well-known/agent-card.json)`);
    }
    await untilStopped();
    await server.close();
    return 0;
  },
};
