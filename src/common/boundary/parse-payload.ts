import type { z } from 'zod';
import { sizeProblem } from './limits';
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

/** The payload checked for size, then shape; the reason names the handler and what is wrong. */
export function parsePayload<H extends HandlerName>(handler: H, raw: unknown, maxBytes: number): Parsed<Payload<H>> {
  const tooLarge = sizeProblem(raw, maxBytes);
  if (tooLarge) return { ok: false, reason: `${handler}: ${tooLarge}` };
  const parsed = payloadSchema(handler).safeParse(raw);
  if (!parsed.success) return { ok: false, reason: `${handler}: ${describeIssues(parsed.error)}` };
  return { ok: true, value: parsed.data };
}
