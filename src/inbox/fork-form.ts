import { z } from 'zod';
import { MAX_NAME_CHARS } from '../common/boundary/limits';

/** A field left empty in the form is the same as one not given. */
const optionalText = (max: number, name: string) =>
  z
    .string()
    .max(max, `${name} is over ${max} characters`)
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : undefined));

/** The "fork from here" form of a run page: the event to fork after, and what the fork changes. */
const forkFieldsSchema = z
  .object({
    csrf: z.string().max(200).optional(),
    at: z.string({ required_error: 'at: which event to fork after is missing' }).regex(/^\d{1,9}$/, "at: an event's number (a whole number from 0)").transform(Number),
    message: optionalText(100_000, 'the message'),
    model: optionalText(MAX_NAME_CHARS, 'the model name'),
  })
  .strict();

export interface ForkRequest {
  at: number;
  message?: string;
  model?: string;
}

export type ParsedFork = { ok: true; request: ForkRequest } | { ok: false; message: string };

/** A posted fork form, parsed; a wrong field is named, and nothing is started. */
export function parseForkForm(form: URLSearchParams): ParsedFork {
  const parsed = forkFieldsSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const reasons = parsed.error.issues.map((issue) => (issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue.message));
    return { ok: false, message: `The fork form was not understood: ${reasons.join('; ')}. Nothing was started.` };
  }
  const { at, message, model } = parsed.data;
  return { ok: true, request: { at, ...(message !== undefined ? { message } : {}), ...(model !== undefined ? { model } : {}) } };
}
