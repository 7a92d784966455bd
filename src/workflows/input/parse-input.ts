import { ApplicationFailure } from '@temporalio/workflow';
import { parsePayload, type Parsed } from '../../common/boundary/parse-payload';
import type { HandlerName, Payload } from '../../common/boundary/payload-schemas';
import { payloadLimit } from './reject-input';
import type { Reading } from '../state';

/** A payload from outside checked for size and shape by its handler's schema. */
export function parseInput<H extends HandlerName>(state: Reading, handler: H, raw: unknown): Parsed<Payload<H>> {
  return parsePayload(handler, raw, payloadLimit(state));
}

export function validated<H extends HandlerName>(state: Reading, handler: H, raw: unknown): Payload<H> {
  const parsed = parseInput(state, handler, raw);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.value;
}

/**
 * The update's request as its validator accepted it (parsed again for the transforms, e.g. a
 * capped reason). The handler hands back the work's promise itself, without awaiting it, so the
 * update completes at the same point of the workflow task as in runs recorded before.
 */
export function acceptedRequest<H extends HandlerName>(state: Reading, handler: H, raw: unknown): Payload<H> {
  return acceptedPayload(handler, raw, payloadLimit(state));
}

/** The payload parsed under `maxBytes`, or a non-retryable failure with the reason (what an update handler or validator throws). */
export function acceptedPayload<H extends HandlerName>(handler: H, raw: unknown, maxBytes: number): Payload<H> {
  const parsed = parsePayload(handler, raw, maxBytes);
  if (!parsed.ok) throw ApplicationFailure.nonRetryable(parsed.reason, 'Agent.RequestRejected');
  return parsed.value;
}
