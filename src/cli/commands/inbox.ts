import { untilStopped } from '../until-stopped';
import { stringOption, UsageError, type CliCommand, type CommandContext } from '../command';
import { slackEndpointFromEnv } from './slack';
import { listenPortOption } from '../listen-port';

const DEFAULT_PORT = 8790;

const DETAILS = [
  'A web app where people answer agents: every call that waits for approval or for an external result, across',
  'runs, conversations and sub-agents, read from visibility (each run publishes what it waits on; a page of calls',
  'at a time, every one reachable), with filters by agent, user, age and kind, updated live. Each call shows its',
  'agent, who started the run, the conversation so',
  "far, the tool, why it asks, its arguments as a form made from the tool's JSON Schema (and as JSON), and the",
  'Temporal Web UI link; approve (with edits, checked against the schema here and by the run), deny with a',
  "reason, remember for the run, or submit an external tool's result. An answer goes straight to the run that",
  'holds the call; a call answered elsewhere shows who answered it. Answers record who gave them: the name of',
  'the token (--token alice=SECRET), the basic-auth user, or the header the deployment sets (--identity-header).',
  "The forms come from the tool schemas each run recorded when it started (MCP tools included): the inbox loads",
  'no agents module. Encrypted runs are read and answered with the keys of --encryption-key-file / AGENT_ENCRYPTION_KEYS:',
  'the browser sees plaintext only over its own connection to the inbox.',
  'It listens on 127.0.0.1 unless --host says otherwise; any other address needs --token or --basic-auth.',
  'Browsers sign in with the token at /sign-in (a cookie), or send Authorization: Bearer TOKEN.',
  'Runs until Ctrl-C.',
].join('\n');

function listOf(ctx: CommandContext, name: string, env: string): string[] {
  const given = ctx.values[name];
  if (Array.isArray(given)) return given;
  const fromEnv = process.env[env]?.trim();
  return fromEnv ? fromEnv.split(',').map((entry) => entry.trim()).filter(Boolean) : [];
}

export const inboxCommand: CliCommand = {
  name: 'inbox',
  usage: 'inbox [--port PORT] [--host H] [--token [NAME=]TOKEN]... [--basic-auth USER:PASSWORD]... [--identity-header NAME] [--query QUERY]',
  summary: 'Serve the approvals inbox: a web page listing every waiting call, with forms to approve, edit, deny or submit results.',
  details: DETAILS,
  options: {
    port: { type: 'string', valueName: 'PORT', description: 'port to listen on (0 picks a free one)', defaultText: String(DEFAULT_PORT) },
    host: { type: 'string', valueName: 'H', description: 'address to listen on; anything but loopback needs --token or --basic-auth', defaultText: '127.0.0.1' },
    token: {
      type: 'string',
      multiple: true,
      valueName: '[NAME=]TOKEN',
      description: 'a bearer token (at least 16 characters) and the name its answers are recorded with (repeatable; comma-separated in the variable)',
      env: 'AGENT_INBOX_TOKENS',
      defaultText: 'none on loopback',
    },
    'basic-auth': { type: 'string', multiple: true, valueName: 'USER:PASSWORD', description: 'HTTP basic auth; the user is the name answers are recorded with (repeatable)', env: 'AGENT_INBOX_BASIC_AUTH' },
    'identity-header': { type: 'string', valueName: 'NAME', description: 'a header the deployment (its proxy) sets to the signed-in person, recorded with answers', env: 'AGENT_INBOX_IDENTITY_HEADER' },
    query: { type: 'string', valueName: 'QUERY', description: "a visibility query that narrows the runs listed, e.g. \"TaskQueue = 'agents'\"" },
    module: { type: 'string', valueName: 'PATH', description: 'no longer used (0.6.0): the forms come from the runs; accepted with a warning' },
  },
  examples: ['inbox', 'inbox --port 8790', 'inbox --host 0.0.0.0 --token "alice=$(openssl rand -hex 24)"', "inbox --query \"TaskQueue = 'support'\""],
  async run(ctx) {
    const { bindProblem, parseInboxAuth } = require('../../inbox/inbox-auth') as typeof import('../../inbox/inbox-auth');
    const { serveInbox } = require('../../inbox/inbox-server') as typeof import('../../inbox/inbox-server');
    const port = listenPortOption(ctx, 'port') ?? DEFAULT_PORT;
    const identityHeader = stringOption(ctx, 'identity-header') ?? (process.env.AGENT_INBOX_IDENTITY_HEADER || undefined);
    let auth: ReturnType<typeof parseInboxAuth>;
    try {
      auth = parseInboxAuth({
        tokens: listOf(ctx, 'token', 'AGENT_INBOX_TOKENS'),
        basicAuth: listOf(ctx, 'basic-auth', 'AGENT_INBOX_BASIC_AUTH'),
        ...(identityHeader ? { identityHeader } : {}),
      });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const host = stringOption(ctx, 'host') ?? '127.0.0.1';
    const problem = bindProblem(host, auth);
    if (problem) throw new UsageError(problem);
    if (stringOption(ctx, 'module') !== undefined) ctx.output.err('--module is no longer used: the forms come from the tool schemas each run recorded.');
    const client = await ctx.connect();
    const scope = stringOption(ctx, 'query');
    // Two-way Slack when its environment is set (docs/slack.md): mounted at /slack/ on the inbox's own port.
    const slack = await slackEndpointFromEnv(client, scope ? { scope } : {});
    const inbox = await serveInbox({ client, port, host, auth, ...(scope ? { scope } : {}), ...(slack ? { slack } : {}) });
    const signIn = auth.tokens.length > 0 ? 'token' : auth.basicAuth.length > 0 ? 'basic' : 'none';
    ctx.output.out(ctx.json ? JSON.stringify({ url: inbox.url, signIn }) : `durable-agent inbox on ${inbox.url}${signIn === 'token' ? ' (sign in with your token)' : ''}`);
    await untilStopped();
    await inbox.close();
    await slack?.close();
    return 0;
  },
};
