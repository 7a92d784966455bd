import { z } from 'zod';

/** The variable with the worker's webhooks: a JSON array of { url, secret?, format?, includeArguments? }. */
export const WEBHOOKS_ENV = 'AGENT_WEBHOOKS';
/** The inbox's base URL, for the link to the waiting call in each notification. */
export const INBOX_URL_ENV = 'AGENT_INBOX_URL';

const httpUrl = z
  .string()
  .url('url must be an absolute http(s) URL')
  .refine((text) => /^https?:\/\//i.test(text), 'url must be an http(s) URL');

export const webhookSchema = z
  .object({
    url: httpUrl,
    /** HMAC-SHA256 key of the signature header; kept on the worker, never in history or logs. */
    secret: z.string().min(16, 'secret must be at least 16 characters').optional(),
    /** `json`: the generic body; `slack`: a Slack incoming-webhook body ({ text, blocks }). */
    format: z.enum(['json', 'slack']).default('json'),
    /** Send the call's arguments too (off by default: they may hold what the receiver should not see). */
    includeArguments: z.boolean().default(false),
  })
  .strict();

export type Webhook = z.output<typeof webhookSchema>;

export const notificationConfigSchema = z
  .object({
    webhooks: z.array(webhookSchema).max(20),
    inboxUrl: httpUrl.optional(),
  })
  .strict();

export type NotificationConfig = z.output<typeof notificationConfigSchema>;
export type NotificationConfigInput = z.input<typeof notificationConfigSchema>;

function issuesOf(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'value'}: ${issue.message}`).join('; ');
}

/** Checked once at worker start; a mistake is an error naming the field, never a silent default. */
export function parseNotificationConfig(input: unknown, source = 'notifications'): NotificationConfig {
  const parsed = notificationConfigSchema.safeParse(input);
  if (!parsed.success) throw new Error(`${source}: ${issuesOf(parsed.error)}`);
  return parsed.data;
}

/** AGENT_WEBHOOKS and AGENT_INBOX_URL; undefined when no webhook is configured. */
export function notificationConfigFromEnv(env: NodeJS.ProcessEnv): NotificationConfig | undefined {
  const text = env[WEBHOOKS_ENV]?.trim();
  if (!text) return undefined;
  let webhooks: unknown;
  try {
    webhooks = JSON.parse(text);
  } catch (error) {
    throw new Error(`${WEBHOOKS_ENV} is not JSON: ${(error as Error).message}`);
  }
  const inboxUrl = env[INBOX_URL_ENV]?.trim();
  return parseNotificationConfig({ webhooks, ...(inboxUrl ? { inboxUrl } : {}) }, `${WEBHOOKS_ENV}/${INBOX_URL_ENV}`);
}
