import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { MAX_NAME_CHARS } from '../common/boundary/limits';
import type { WaitNotice } from '../common/contracts/wait-notice';

/** The worker's signature header (activities/notify/send-webhook.ts): `sha256=<hex HMAC-SHA256 of the body>`. */
export const NOTICE_SIGNATURE_HEADER = 'x-durable-agent-signature';

const name = z.string().min(1).max(MAX_NAME_CHARS);

/**
 * A notice as the worker's JSON webhook sends it (webhook-bodies.ts `jsonBody`): the WaitNotice
 * with a `type` and maybe a link. Fields this endpoint does not use are dropped, so notices that
 * gain fields still parse.
 */
export const receivedNoticeSchema = z.object({
  event: z.enum(['waiting', 'reminded', 'escalated', 'delegated', 'answered']),
  workflowId: z.string().min(1).max(1_000),
  agent: name,
  callId: name,
  tool: name,
  kind: z.enum(['approval', 'external']),
  reason: z.string().max(20_000).optional(),
  approvers: z.array(name).max(1_000).optional(),
  reminder: z.number().int().min(0).optional(),
  delegatedBy: name.optional(),
  outcome: z.enum(['approved', 'denied', 'timed_out', 'submitted']).optional(),
  answeredBy: name.optional(),
  at: z.string().max(64),
});

export type ReceivedNotice = Pick<WaitNotice, 'event' | 'workflowId' | 'agent' | 'callId' | 'tool' | 'kind' | 'reason' | 'approvers' | 'reminder' | 'delegatedBy' | 'outcome' | 'answeredBy' | 'at'>;

/** Whether `header` is the worker's signature of `body` under `secret` (compared in constant time). */
export function signedByWorker(body: string, header: string | string[] | undefined, secret: string): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
