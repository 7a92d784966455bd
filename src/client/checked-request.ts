import type { z } from 'zod';
import { parsePayload } from '../common/boundary/parse-payload';
import type { HandlerName, PayloadSchema } from '../common/boundary/payload-schemas';
import { RunRequestRejectedError } from './request-rejected';

/**
 * The request checked by the same schema and size limit the run applies, before it is sent: a
 * request the run would refuse fails here with the run's reason, and nothing reaches Temporal.
 */
export function checkedRequest<H extends HandlerName>(handler: H, payload: unknown, maxBytes: number): z.input<PayloadSchema<H>> {
  const parsed = parsePayload(handler, payload, maxBytes);
  if (!parsed.ok) throw new RunRequestRejectedError(`${parsed.reason}; it was not sent`);
  return payload as z.input<PayloadSchema<H>>;
}
