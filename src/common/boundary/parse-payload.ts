import type { z } from 'zod';
import { truncateText } from '../truncate-text';
import { MAX_REASON_CHARS, sizeProblem } from './limits';
import { payloadSchema, type HandlerName, type Payload } from './payload-schemas';

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

function pathOf(path: (string | number)[]): string {
  return path.length === 0 ? 'the payload' : path.join('.');
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') return `unknown field(s) ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
      return `${pathOf(issue.path)}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * The payload checked for size, then shape; the reason names the handler and what is wrong. It is
 * capped: it quotes what was sent (an unknown field's name), and an update's refusal carries the
 * request and the reason back to Temporal, which must stay under its 2 MiB limit.
 */
export function parsePayload<H extends HandlerName>(handler: H, raw: unknown, maxBytes: number): Parsed<Payload<H>> {
  const tooLarge = sizeProblem(raw, maxBytes);
  if (tooLarge) return { ok: false, reason: `${handler}: ${tooLarge}` };
  const parsed = payloadSchema(handler).safeParse(raw);
  if (!parsed.success) return { ok: false, reason: truncateText(`${handler}: ${describeIssues(parsed.error)}`, MAX_REASON_CHARS) };
  return { ok: true, value: parsed.data };
}
