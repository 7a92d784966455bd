import type { AgentClient } from '../../client/agent-client';
import type { SlackEndpoint } from '../../slack/slack-endpoint';
import type { SlackConfigInput } from '../../slack/slack-config';
import { untilStopped } from '../until-stopped';
import { stringOption, UsageError, type CliCommand, type CommandContext } from '../command';
import { listenPortOption } from '../listen-port';

const DEFAULT_PORT = 8791;

const DETAILS = [
  'Two-way Slack for calls that wait for approval: each waiting call is posted to a channel with Approve, Deny',
  "and Edit buttons (Edit opens a modal made from the tool's JSON Schema; the run checks edits like any edit). The",
  "Slack user is mapped to an approver identity (AGENT_SLACK_USERS, or their profile's email with",
  '--identity-from-email); an unmapped user is told so and nothing is sent. Answers carry the digest of the',
  'arguments the message showed. A call answered anywhere else (inbox, CLI, MCP) has its message updated to',
  "say who answered and how; reminders, escalations and delegations are posted to the message's thread.",
  '',
  'Slack posts interactions to <base>/interactions (the app\'s Request URL), checked by Bolt with the signing',
  "secret (signature and five-minute window). The worker's webhook delivers notices to <base>/notices, signed",
  'with AGENT_SLACK_NOTICE_SECRET (the webhook\'s `secret`). Which message belongs to which call is kept in',
  '--state-file, so a restarted endpoint still updates its messages; at start (and every minute) it also catches',
  'up with visibility: messages of calls answered meanwhile, and waiting calls without a message.',
  '',
  'Secrets come from the environment only: AGENT_SLACK_BOT_TOKEN, AGENT_SLACK_SIGNING_SECRET,',
  'AGENT_SLACK_NOTICE_SECRET. The inbox mounts the same endpoint when AGENT_SLACK_BOT_TOKEN is set. Guide: docs/slack.md.',
  'Runs until Ctrl-C.',
].join('\n');

/** The Slack endpoint of the environment (AGENT_SLACK_*), for a server that mounts it (the inbox); undefined without AGENT_SLACK_BOT_TOKEN. */
export async function slackEndpointFromEnv(client: AgentClient, more: Partial<SlackConfigInput> = {}): Promise<SlackEndpoint | undefined> {
  const { slackConfigFromEnv } = require('../../slack/slack-config') as typeof import('../../slack/slack-config');
  const { createSlackEndpoint } = require('../../slack/slack-endpoint') as typeof import('../../slack/slack-endpoint');
  let config: ReturnType<typeof slackConfigFromEnv>;
  try {
    config = slackConfigFromEnv(process.env, more);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return config ? createSlackEndpoint({ client, config }) : undefined;
}

function flags(ctx: CommandContext): Partial<SlackConfigInput> {
  const users = ctx.values.user;
  const channel = stringOption(ctx, 'channel');
  const stateFile = stringOption(ctx, 'state-file');
  const scope = stringOption(ctx, 'query');
  const parsedUsers = Array.isArray(users)
    ? Object.fromEntries(
        users.map((entry) => {
          const at = entry.indexOf('=');
          if (at <= 0) throw new UsageError(`--user takes SLACK_USER_ID=identity, not '${entry}'`);
          return [entry.slice(0, at).trim(), entry.slice(at + 1).trim()];
        }),
      )
    : undefined;
  return {
    ...(channel ? { channel } : {}),
    ...(stateFile ? { stateFile } : {}),
    ...(scope ? { scope } : {}),
    ...(parsedUsers ? { users: parsedUsers } : {}),
    ...(ctx.values['identity-from-email'] === true ? { identityFromEmail: true } : {}),
  };
}

export const slackCommand: CliCommand = {
  name: 'slack',
  usage: 'slack [--port PORT] [--host H] [--channel ID] [--user SLACK_ID=IDENTITY]... [--identity-from-email] [--state-file PATH] [--query QUERY]',
  summary: 'Serve two-way Slack: waiting calls posted with Approve, Deny and Edit buttons; messages updated when answered anywhere.',
  details: DETAILS,
  options: {
    port: { type: 'string', valueName: 'PORT', description: 'port to listen on (0 picks a free one)', defaultText: String(DEFAULT_PORT) },
    host: { type: 'string', valueName: 'H', description: 'address to listen on (Slack reaches it through your proxy or tunnel)', defaultText: '127.0.0.1' },
    channel: { type: 'string', valueName: 'ID', description: 'the channel waiting calls are posted to (the bot must be a member)', env: 'AGENT_SLACK_CHANNEL' },
    user: { type: 'string', multiple: true, valueName: 'SLACK_ID=IDENTITY', description: 'a Slack user and the identity their answers are recorded with (repeatable)', env: 'AGENT_SLACK_USERS' },
    'identity-from-email': { type: 'boolean', description: "users not mapped answer as their Slack profile's email (scope users:read.email)", env: 'AGENT_SLACK_IDENTITY_FROM_EMAIL' },
    'state-file': { type: 'string', valueName: 'PATH', description: 'where each call\'s Slack message is kept across restarts', env: 'AGENT_SLACK_STATE_FILE', defaultText: '.durable-agent/slack-messages.json' },
    query: { type: 'string', valueName: 'QUERY', description: "a visibility query narrowing the runs caught up on, e.g. \"TaskQueue = 'agents'\"" },
  },
  examples: ['slack --channel C0123ABCD --user U0123ABCD=alice@example.com', "slack --port 8791 --query \"TaskQueue = 'support'\""],
  async run(ctx) {
    const { slackConfigFromEnv, SLACK_ENV } = require('../../slack/slack-config') as typeof import('../../slack/slack-config');
    const { serveSlack } = require('../../slack/serve-slack') as typeof import('../../slack/serve-slack');
    const port = listenPortOption(ctx, 'port') ?? DEFAULT_PORT;
    let config: ReturnType<typeof slackConfigFromEnv>;
    try {
      config = slackConfigFromEnv(process.env, flags(ctx));
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (!config) throw new UsageError(`${SLACK_ENV.botToken} is not set: the bot's token (xoxb-…) comes from the environment, with ${SLACK_ENV.signingSecret} and ${SLACK_ENV.noticeSecret}`);
    const client = await ctx.connect();
    const server = await serveSlack({ client, config, port, host: stringOption(ctx, 'host') ?? '127.0.0.1', log: (level, message) => ctx.output.err(`${level}: ${message}`) });
    const paths = server.endpoint.paths;
    ctx.output.out(
      ctx.json
        ? JSON.stringify({ url: server.url, interactions: `${server.url}${paths.interactions}`, notices: `${server.url}${paths.notices}` })
        : `durable-agent slack on ${server.url}: Slack's Request URL ${paths.interactions}, the worker's webhook ${paths.notices}`,
    );
    await untilStopped();
    await server.close();
    return 0;
  },
};
