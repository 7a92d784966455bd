import { z } from 'zod';
import type { webApi } from '@slack/bolt';
import type { SlackConfig } from './slack-config';

const userInfoSchema = z.object({
  ok: z.literal(true),
  user: z.object({ deleted: z.boolean().optional(), is_bot: z.boolean().optional(), profile: z.object({ email: z.string().email().optional() }).passthrough().optional() }).passthrough(),
});

/**
 * The identity a Slack user answers as: the config's map first, then (when enabled) the email of
 * their Slack profile, within the allowed domains. Undefined: the user is not an approver here.
 */
export async function identityOf(userId: string, config: Pick<SlackConfig, 'users' | 'identityFromEmail' | 'emailDomains'>, client: webApi.WebClient): Promise<string | undefined> {
  const mapped = config.users[userId];
  if (mapped) return mapped;
  if (!config.identityFromEmail) return undefined;
  const answer = userInfoSchema.safeParse(await client.users.info({ user: userId }).catch(() => undefined));
  if (!answer.success || answer.data.user.deleted || answer.data.user.is_bot) return undefined;
  const email = answer.data.user.profile?.email?.toLowerCase();
  if (!email) return undefined;
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (config.emailDomains.length > 0 && !config.emailDomains.some((allowed) => allowed.toLowerCase() === domain)) return undefined;
  return email;
}
