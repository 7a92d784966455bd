import { z } from 'zod';
import { SCHEDULE_OVERLAPS, type AgentScheduleOptions, type ScheduleOverlap } from '../../client/schedules';
import { budgetOption } from '../budget-option';
import type { CommandContext } from '../command';
import { UsageError } from '../command';

const text = (flag: string) => z.string().trim().min(1, `${flag} takes a non-empty value`);
const positiveInteger = (flag: string) =>
  z
    .string()
    .regex(/^[1-9]\d*$/, `${flag} takes a positive integer`)
    .transform(Number);
const overlap = z.enum(SCHEDULE_OVERLAPS, { errorMap: () => ({ message: `--overlap takes one of ${SCHEDULE_OVERLAPS.join(', ')}` }) });

/** `schedule create`'s flags; the schedule's own options (cron, durations, budget) are checked again by the client's schema. */
const createFlags = z.object({
  agent: text('--agent'),
  prompt: text('--prompt'),
  cron: z.array(z.string()).optional(),
  every: text('--every').optional(),
  user: text('--user').optional(),
  'max-iters': positiveInteger('--max-iters').optional(),
  budget: z.string().optional(),
  model: text('--model').optional(),
  overlap: overlap.optional(),
  'catchup-window': text('--catchup-window').optional(),
  paused: z.boolean().optional(),
  note: z.string().optional(),
  session: text('--session').optional(),
});

const backfillFlags = z.object({
  start: z.string({ required_error: '--start is required' }).pipe(z.coerce.date({ errorMap: () => ({ message: '--start takes a time, e.g. 2026-01-10T00:00:00Z' }) })),
  end: z.string({ required_error: '--end is required' }).pipe(z.coerce.date({ errorMap: () => ({ message: '--end takes a time, e.g. 2026-01-10T06:00:00Z' }) })),
  overlap: overlap.optional(),
});

function parsed<T extends z.ZodTypeAny>(schema: T, values: CommandContext['values']): z.output<T> {
  const result = schema.safeParse(values);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => (issue.message === 'Required' ? `--${issue.path.join('.')} is required` : issue.message));
    throw new UsageError(problems.join('; '));
  }
  return result.data;
}

/** The schedule `schedule create ID` asks for, and its agent's name. */
export function createOptionsFromFlags(id: string, values: CommandContext['values']): { agent: string; options: AgentScheduleOptions } {
  const flags = parsed(createFlags.passthrough(), values);
  const budget = budgetOption(flags.budget);
  const every = flags.every !== undefined && /^\d+$/.test(flags.every) ? Number(flags.every) : flags.every;
  if ((flags.cron === undefined) === (every === undefined)) throw new UsageError('give --cron EXPR (repeatable) or --every DURATION, not both');
  return {
    agent: flags.agent,
    options: {
      id,
      prompt: flags.prompt,
      ...(flags.cron !== undefined ? { cron: flags.cron } : { every: every! }),
      ...(flags.user !== undefined ? { userId: flags.user } : {}),
      ...(flags['max-iters'] !== undefined ? { maxIters: flags['max-iters'] } : {}),
      ...(budget !== undefined ? { budget } : {}),
      ...(flags.model !== undefined ? { model: flags.model } : {}),
      ...(flags.overlap !== undefined ? { overlap: flags.overlap } : {}),
      ...(flags['catchup-window'] !== undefined ? { catchupWindow: flags['catchup-window'] } : {}),
      ...(flags.paused ? { paused: true } : {}),
      ...(flags.note !== undefined ? { note: flags.note } : {}),
      ...(flags.session !== undefined ? { conversation: { sessionId: flags.session } } : {}),
    },
  };
}

export function backfillFromFlags(values: CommandContext['values']): { start: Date; end: Date; overlap?: ScheduleOverlap } {
  const { start, end, overlap } = parsed(backfillFlags.passthrough(), values);
  return { start, end, ...(overlap !== undefined ? { overlap } : {}) };
}

export function overlapFromFlags(values: CommandContext['values']): ScheduleOverlap | undefined {
  return parsed(z.object({ overlap: overlap.optional() }).passthrough(), values).overlap;
}
