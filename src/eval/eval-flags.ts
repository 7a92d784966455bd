import { z } from 'zod';
import { durationMs, DURATION_EXAMPLES } from '../common/duration';
import { DEFAULT_THRESHOLD } from './baseline';

export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_TIMEOUT = '5m';

const positiveInteger = (flag: string) =>
  z
    .string()
    .regex(/^[1-9]\d*$/, `${flag} takes a positive whole number`)
    .transform(Number);

/** The eval's own flags as the CLI gives them (strings), checked and typed. */
export const evalFlagsSchema = z.object({
  repeat: positiveInteger('--repeat').default('1'),
  concurrency: positiveInteger('--concurrency').default(String(DEFAULT_CONCURRENCY)),
  timeout: z
    .string()
    .default(DEFAULT_TIMEOUT)
    .transform((text, ctx) => {
      const ms = durationMs(/^\d+$/.test(text) ? Number(text) : text);
      if (ms === undefined || ms <= 0) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `--timeout takes a duration, ${DURATION_EXAMPLES}` });
        return z.NEVER;
      }
      return ms;
    }),
  models: z
    .string()
    .transform((text) => text.split(',').map((name) => name.trim()))
    .refine((names) => names.length > 0 && names.every((name) => name !== ''), '--models takes model names separated by commas, e.g. gpt-4o-mini,qwen3')
    .refine((names) => new Set(names).size === names.length, '--models names a model twice')
    .optional(),
  'judge-model': z.string().min(1, '--judge-model takes a model name').optional(),
  baseline: z.string().min(1).optional(),
  threshold: z
    .string()
    .default(String(DEFAULT_THRESHOLD))
    .transform(Number)
    .refine((value) => Number.isFinite(value) && value >= 0 && value <= 1, '--threshold takes a pass-rate drop between 0 and 1, e.g. 0.1'),
  junit: z.string().min(1).optional(),
});

export type EvalFlags = z.output<typeof evalFlagsSchema>;

/** The flags' problems as one line for a usage error; the typed flags otherwise. */
export function parseEvalFlags(values: Record<string, unknown>): { flags: EvalFlags } | { problem: string } {
  const given = Object.fromEntries(Object.keys(evalFlagsSchema.shape).filter((name) => typeof values[name] === 'string').map((name) => [name, values[name]]));
  const parsed = evalFlagsSchema.safeParse(given);
  if (!parsed.success) return { problem: parsed.error.issues.map((issue) => issue.message).join('; ') };
  return { flags: parsed.data };
}
