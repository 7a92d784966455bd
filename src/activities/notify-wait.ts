import { Context } from '@temporalio/activity';
import type { WaitNotice } from '../common/contracts/wait-notice';
import { inboxLink, jsonBody, slackBody } from './notify/webhook-bodies';
import type { NotificationConfig } from './notify/webhook-config';
import { sendWebhook } from './notify/send-webhook';

/**
 * Sends a notice to every webhook of the worker. A failed delivery fails the attempt, so Temporal
 * retries it with backoff; the webhooks already reached are kept in the heartbeat details and not
 * sent to again. The run never awaits this activity (see workflows/effects/notify-waits.ts).
 */
export function notifyWaitActivity(config: NotificationConfig | undefined) {
  return async function notifyWait(notice: WaitNotice): Promise<void> {
    if (!config) return;
    const context = Context.current();
    const delivered = new Set<number>(Array.isArray(context.info.heartbeatDetails) ? (context.info.heartbeatDetails as number[]) : []);
    const link = inboxLink(config.inboxUrl, notice);
    const failures: string[] = [];
    await Promise.all(
      config.webhooks.map(async (webhook, index) => {
        if (delivered.has(index)) return;
        const body = webhook.format === 'slack' ? slackBody(notice, webhook, link) : jsonBody(notice, webhook, link);
        try {
          await sendWebhook(webhook, body, context.cancellationSignal);
          delivered.add(index);
        } catch (error) {
          failures.push((error as Error).message);
        }
      }),
    );
    context.heartbeat([...delivered]);
    if (failures.length > 0) throw new Error(`${failures.length} of ${config.webhooks.length} webhook(s) not reached: ${failures.join('; ')}`);
  };
}
