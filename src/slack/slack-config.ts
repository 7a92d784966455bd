import { z } from 'zod';
import { MAX_NAME_CHARS } from '../common/boundary/limits';

/** The variables `durable-agent slack` (and the inbox's Slack mount) read; secrets live only here and in the endpoint's memory. */
export const SLACK_ENV = {
  botToken: 'AGENT_SLACK_BOT_TOKEN',
  signingSecret: 'AGENT_SLACK_SIGNING_SECRET',
  noticeSecret: 'AGENT_SLACK_NOTICE_SECRET',
  channel: 'AGENT_SLACK_CHANNEL',
  users: 'AGENT_SLACK_USERS',
  identityFromEmail: 'AGENT_SLACK_IDENTITY_FROM_EMAIL',
  emailDomains: 'AGENT_SLACK_EMAIL_DOMAINS',
  stateFile: 'AGENT_SLACK_STATE_FILE',
  apiUrl: 'AGENT_SLACK_API_URL',
} as const;

export const DEFAULT_STATE_FILE = '.durable-agent/slack-messages.json';
export const DEFAULT_BASE_PATH = '/slack';

const identity = z.string().trim().min(1, 'an identity must not be empty').max(MAX_NAME_CHARS);
/** Slack user ids: U… (or W… in Enterprise Grid). */
const slackUserId = z.string().regex(/^[UW][A-Z0-9]{2,30}$/, 'a Slack user id looks like U0123ABCD');

export const slackConfigSchema = z
  .object({
    /** The bot's token (xoxb-…): chat.postMessage, chat.update, chat.postEphemeral, views.open, users.info. */
    botToken: z.string().regex(/^xox[bpe]-[A-Za-z0-9-]{6,}$/, 'botToken must be a Slack token (xoxb-…)'),
    /** The app's signing secret: Bolt checks every interaction's X-Slack-Signature with it. */
    signingSecret: z.string().min(16, 'signingSecret must be the app\'s signing secret (at least 16 characters)'),
    /** The secret of the worker's webhook that delivers notices here (its `secret`): checks X-Durable-Agent-Signature. */
    noticeSecret: z.string().min(16, 'noticeSecret must be at least 16 characters (the webhook\'s secret)'),
    /** Where messages of waiting calls are posted: a channel id (C…) the bot is a member of. */
    channel: z.string().min(1).max(100),
    /** Slack user id → the identity answers are recorded with (`answeredBy`). */
    users: z.record(slackUserId, identity).default({}),
    /** Users not in `users`: their Slack profile's email (users.info, scope users:read.email) is their identity. */
    identityFromEmail: z.boolean().default(false),
    /** With identityFromEmail: only emails of these domains count (none: any). */
    emailDomains: z.array(z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, 'a domain, e.g. example.com')).max(100).default([]),
    /** The file that keeps each call's Slack message (channel, ts, digest), so a restarted endpoint still updates it. */
    stateFile: z.string().min(1).default(DEFAULT_STATE_FILE),
    /** Paths are `<basePath>/interactions` (Slack's Request URL) and `<basePath>/notices` (the worker's webhook). */
    basePath: z.string().regex(/^\/[A-Za-z0-9/_-]*[A-Za-z0-9_-]$/, 'basePath is a path like /slack').default(DEFAULT_BASE_PATH),
    /** Slack's Web API base URL; only for a proxy or a test server. */
    apiUrl: z.string().url().refine((text) => /^https?:\/\//.test(text), 'apiUrl must be http(s)').optional(),
    /** A visibility query narrowing the runs whose waiting calls are caught up on (e.g. `TaskQueue = 'agents'`). */
    scope: z.string().max(4_000).optional(),
    /** How often the endpoint catches up with visibility (messages missed, calls answered elsewhere); 0: only at start. */
    reconcileIntervalMs: z.number().int().min(0).max(86_400_000).default(60_000),
  })
  .strict();

export type SlackConfig = z.output<typeof slackConfigSchema>;
export type SlackConfigInput = z.input<typeof slackConfigSchema>;

/** The config, checked; a mistake names the field and never echoes a secret. */
export function parseSlackConfig(input: unknown, source = 'slack'): SlackConfig {
  const parsed = slackConfigSchema.safeParse(input);
  if (!parsed.success) throw new Error(`${source}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'value'}: ${issue.message}`).join('; ')}`);
  return parsed.data;
}

/** AGENT_SLACK_USERS: a JSON object, or `U0123=alice@example.com,U0456=bob`. */
function usersOf(text: string | undefined): unknown {
  const trimmed = text?.trim();
  if (!trimmed) return undefined;
  if (trimmed.startsWith('{')) {
    try {
      return JSON.parse(trimmed);
    } catch (error) {
      throw new Error(`${SLACK_ENV.users} is not JSON: ${(error as Error).message}`);
    }
  }
  return Object.fromEntries(
    trimmed
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map((entry) => {
        const at = entry.indexOf('=');
        if (at <= 0) throw new Error(`${SLACK_ENV.users}: '${entry}' is not SLACK_USER_ID=identity`);
        return [entry.slice(0, at).trim(), entry.slice(at + 1).trim()];
      }),
  );
}

/** The config from the environment, with `more` (flags) over it; undefined when no bot token is set. */
export function slackConfigFromEnv(env: NodeJS.ProcessEnv, more: Partial<SlackConfigInput> = {}): SlackConfig | undefined {
  const value = (name: string) => env[name]?.trim() || undefined;
  if (!value(SLACK_ENV.botToken) && more.botToken === undefined) return undefined;
  const domains = value(SLACK_ENV.emailDomains);
  const fromEnv: Record<string, unknown> = {
    botToken: value(SLACK_ENV.botToken),
    signingSecret: value(SLACK_ENV.signingSecret),
    noticeSecret: value(SLACK_ENV.noticeSecret),
    channel: value(SLACK_ENV.channel),
    users: usersOf(env[SLACK_ENV.users]),
    identityFromEmail: value(SLACK_ENV.identityFromEmail) === undefined ? undefined : value(SLACK_ENV.identityFromEmail) === 'true',
    emailDomains: domains ? domains.split(',').map((domain) => domain.trim()).filter(Boolean) : undefined,
    stateFile: value(SLACK_ENV.stateFile),
    apiUrl: value(SLACK_ENV.apiUrl),
  };
  const merged = Object.fromEntries(Object.entries({ ...fromEnv, ...more }).filter(([, given]) => given !== undefined));
  return parseSlackConfig(merged, 'AGENT_SLACK_*');
}
