import { z } from 'zod';
import { budgetProblem, type Budget } from '../../common/budget';
import { durationMs, durationProblem } from '../../common/duration';
import type { RuntimeContext } from '../../common/runtime';
import { cronProblem } from './cron-check';
import { SCHEDULE_OVERLAPS, type ScheduleOverlap } from './overlaps';

export { SCHEDULE_OVERLAPS, type ScheduleOverlap };

/**
 * How late a missed fire may still be taken: a fire the scheduler could not take on time (the
 * Temporal server was down) is taken late only within this window. Temporal's own default is a
 * year, which would replay every missed fire of a long outage; for agent runs, each a paid model
 * call on a prompt written for its moment, a stale fire is worth less than its cost. Five minutes
 * rides out a restart of the server and drops the rest.
 */
export const DEFAULT_CATCHUP_WINDOW = '5 minutes';

/** Temporal's smallest catch-up window. */
const MIN_CATCHUP_MS = 10_000;

export interface AgentScheduleOptions {
  /** The schedule's id (unique in the namespace); each run is named after it and its fire time. */
  id: string;
  /** When to fire: cron expression(s) of five fields, in UTC (`'0 9 * * 1-5'`). Exactly one of `cron` and `every`. */
  cron?: string | string[];
  /** When to fire: every this long (`'30s'`, `'1h'`, ms). Exactly one of `cron` and `every`. */
  every?: string | number;
  /** The prompt each run starts with (each turn's message, for a conversation schedule). */
  prompt: string;
  userId?: string;
  /** More runtime context for the tools (never shown to the model). */
  runtime?: RuntimeContext;
  /** What each run may spend (a conversation's, across its turns): see Budget. */
  budget?: Budget;
  /** Model calls that may use tools, per run (per turn, for a conversation). */
  maxIters?: number;
  /** The model the runs call in place of the agent's. */
  model?: string;
  /** A fire while the earlier fire's run still goes: `skip` (default), `bufferOne`, `bufferAll`, `cancelOther`, `terminateOther`, `allowAll`. */
  overlap?: ScheduleOverlap;
  /** How late a missed fire may still be taken (a duration); five minutes by default (see DEFAULT_CATCHUP_WINDOW). */
  catchupWindow?: string | number;
  /** Create it paused (with `note` saying why). */
  paused?: boolean;
  note?: string;
  /** Each fire is a turn of this conversation (started by the first fire), so the agent keeps its context between fires. */
  conversation?: { sessionId: string };
}

/** The options of a schedule, refused before anything is sent: the message names each problem. */
export class ScheduleOptionsError extends TypeError {
  constructor(
    readonly scheduleId: string | undefined,
    readonly problems: string[],
    outcome = 'not created',
  ) {
    super(`Schedule${scheduleId ? ` '${scheduleId}'` : ''} ${outcome}: ${problems.join('; ')}.`);
    this.name = 'ScheduleOptionsError';
  }
}

const duration = (what: string) =>
  z.union([z.string(), z.number()]).superRefine((value, ctx) => {
    const problem = durationProblem(what, value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const scheduleOptionsSchema = z
  .object({
    id: z.string({ required_error: 'id is required' }).trim().min(1, 'id must be a non-empty string'),
    cron: z.union([z.string(), z.array(z.string()).min(1, 'cron needs at least one expression')]).optional(),
    every: duration('every').optional(),
    prompt: z.string({ required_error: 'prompt is required' }).min(1, 'prompt must be a non-empty string'),
    userId: z.string().min(1).optional(),
    runtime: z.record(z.unknown()).optional(),
    budget: z.unknown().superRefine((value, ctx) => {
      const problem = budgetProblem('budget', value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    maxIters: z.number().int().positive('maxIters must be a positive integer').optional(),
    model: z.string().trim().min(1, 'model must be a model name').optional(),
    overlap: z.enum(SCHEDULE_OVERLAPS).default('skip'),
    catchupWindow: duration('catchupWindow')
      .refine((value) => (durationMs(value) ?? 0) >= MIN_CATCHUP_MS, 'catchupWindow must be at least 10 seconds (Temporal\'s smallest)')
      .default(DEFAULT_CATCHUP_WINDOW),
    paused: z.boolean().default(false),
    note: z.string().optional(),
    conversation: z.object({ sessionId: z.string().trim().min(1, 'conversation.sessionId must be a non-empty string') }).strict().optional(),
  })
  .strict()
  .superRefine((options, ctx) => {
    if ((options.cron === undefined) === (options.every === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'give exactly one of cron and every' });
    }
    for (const expression of options.cron === undefined ? [] : [options.cron].flat()) {
      const problem = cronProblem(expression);
      if (problem) ctx.addIssue({ code: 'custom', path: ['cron'], message: problem });
    }
  });

export type CheckedScheduleOptions = Omit<z.output<typeof scheduleOptionsSchema>, 'cron' | 'every' | 'catchupWindow' | 'budget' | 'runtime'> & {
  cron?: string[];
  everyMs?: number;
  catchupWindowMs: number;
  budget?: Budget;
  runtime?: RuntimeContext;
};

function issueText(issue: z.ZodIssue): string {
  const field = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') return `unknown option(s): ${issue.keys.join(', ')}`;
  // Messages written here name their field already; zod's own do not.
  return issue.code === 'custom' || issue.message.includes(field) || field === '' ? issue.message : `${field}: ${issue.message}`;
}

/** The options parsed and checked (cron expressions by croner, the budget, durations), or a ScheduleOptionsError naming every problem. */
export function checkedScheduleOptions(options: AgentScheduleOptions): CheckedScheduleOptions {
  const parsed = scheduleOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const id = typeof (options as { id?: unknown })?.id === 'string' ? options.id : undefined;
    throw new ScheduleOptionsError(id, parsed.error.issues.map(issueText));
  }
  const { cron, every, catchupWindow, budget, runtime, ...rest } = parsed.data;
  return {
    ...rest,
    ...(cron !== undefined ? { cron: [cron].flat().map((expression) => expression.trim()) } : {}),
    ...(every !== undefined ? { everyMs: durationMs(every)! } : {}),
    catchupWindowMs: durationMs(catchupWindow)!,
    ...(budget !== undefined ? { budget: budget as Budget } : {}),
    ...(runtime !== undefined ? { runtime: runtime as RuntimeContext } : {}),
  };
}
