import { createHmac } from 'node:crypto';
import type { Webhook } from './webhook-config';

/** The header with `sha256=<hex HMAC-SHA256 of the raw body under the webhook's secret>`. */
export const SIGNATURE_HEADER = 'X-Durable-Agent-Signature';
/** A receiver that does not answer within this long counts as a failed delivery (retried). */
export const DELIVERY_TIMEOUT_MS = 10_000;

export function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

function deadline(cancelled: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(DELIVERY_TIMEOUT_MS);
  return cancelled ? AbortSignal.any([timeout, cancelled]) : timeout;
}

/** One POST; throws unless the receiver answers 2xx in time. The error names the URL's origin only (its path may hold a token). */
export async function sendWebhook(webhook: Webhook, body: unknown, cancelled?: AbortSignal): Promise<void> {
  const text = JSON.stringify(body);
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': 'durable-agent' };
  if (webhook.secret) headers[SIGNATURE_HEADER] = signatureOf(text, webhook.secret);
  const where = new URL(webhook.url).origin;
  let response: Response;
  try {
    response = await fetch(webhook.url, { method: 'POST', headers, body: text, signal: deadline(cancelled) });
  } catch (error) {
    throw new Error(`webhook ${where}: ${(error as Error).message}`);
  }
  await response.body?.cancel().catch(() => undefined);
  if (!response.ok) throw new Error(`webhook ${where} answered ${response.status}`);
}
