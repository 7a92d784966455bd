import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { ownFailuresIn, type AttemptBudget } from '../common/contracts/attempt-budget';
import { FailureTypes } from '../common/failures';
import { linkedAbort } from '../common/linked-abort';

export interface StepAttemptOptions {
  /** Absent in calls scheduled before budgets existed: Temporal's own attempt cap applies to them. */
  budget?: AttemptBudget;
  /** Who fails when the attempt runs past its time limit, e.g. "Tool 'refund'". */
  subject: string;
  /** The failure type of that, e.g. Tool.Timeout. */
  timeoutType: string;
  /** Without a sign of progress (`touch`) for this long, the attempt fails as its own (a stalled stream). */
  idleMs?: number;
  /** Retryable failure types that are no failure of the step's own (a worker that lacks the tool): retried, never counted. */
  uncounted?: readonly string[];
}

export interface AttemptControls {
  /** Aborted when the run cancels the call or the attempt runs past its time limit. */
  signal: AbortSignal;
  /** Heartbeat these details; the attempt count travels with them. */
  heartbeat(details?: Record<string, unknown>): void;
  /** A sign of progress: resets the idle limit. */
  touch(): void;
}

/** A worker that does not serve the run's agent is never the step's failure, whatever the step. */
function isUncounted(type: string, options: StepAttemptOptions): boolean {
  return type === FailureTypes.notServedHere || (options.uncounted?.includes(type) ?? false);
}

/** Often enough that a busy event loop or a slow server round trip never lets a healthy worker time out. */
export function heartbeatIntervalMs(heartbeatTimeoutMs: number): number {
  return Math.min(5_000, Math.max(200, Math.floor(heartbeatTimeoutMs / 6)));
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms} ms`;
}

/**
 * One attempt of a step, with the step's own attempt budget. Heartbeats go out while the work
 * runs (so a dead worker is noticed within the heartbeat timeout) and carry the count of the
 * step's own failures, which Temporal keeps across attempts and crashes. A retryable failure of
 * the work counts; the one that reaches `maximumAttempts` is made non-retryable here, since
 * Temporal's retry policy has no attempt cap (see src/common/attempt-budget.ts).
 */
export async function runAttempt<T>(options: StepAttemptOptions, work: (controls: AttemptControls) => Promise<T>): Promise<T> {
  const ctx = Context.current();
  const previous = ownFailuresIn(ctx.info.heartbeatDetails);
  let details: Record<string, unknown> = {};
  const beat = (ownFailures: number) => ctx.heartbeat({ ...details, ownFailures });
  // Aborted by the step's own limits, and by Temporal's cancellation.
  const { controller: limit, release } = linkedAbort(ctx.cancellationSignal);
  let overrun: ApplicationFailure | undefined;
  let failOverrun: (failure: ApplicationFailure) => void = () => undefined;
  const overran = new Promise<never>((_, reject) => {
    failOverrun = reject;
  });
  overran.catch(() => undefined);
  const stop = (message: string) => {
    if (overrun) return;
    overrun = ApplicationFailure.retryable(message, options.timeoutType);
    limit.abort(overrun);
    failOverrun(overrun);
  };
  const timers: NodeJS.Timeout[] = [];
  const heartbeatMs = ctx.info.heartbeatTimeoutMs;
  if (heartbeatMs) timers.push(setInterval(() => beat(previous), heartbeatIntervalMs(heartbeatMs)));
  const budget = options.budget;
  if (budget) timers.push(setTimeout(() => stop(`${options.subject} did not finish within its timeout of ${seconds(budget.timeoutMs)}`), budget.timeoutMs));
  let idle: NodeJS.Timeout | undefined;
  const touch = () => {
    if (!budget || !options.idleMs) return;
    clearTimeout(idle);
    idle = setTimeout(() => stop(`${options.subject} sent nothing for ${seconds(options.idleMs!)}`), options.idleMs);
  };
  touch();
  const controls: AttemptControls = {
    signal: limit.signal,
    heartbeat(next = {}) {
      details = next;
      beat(previous);
    },
    touch,
  };
  try {
    return await Promise.race([work(controls), overran]);
  } catch (error) {
    const failure = overrun ?? error;
    if (!budget || failure instanceof CancelledFailure || ctx.cancellationSignal.aborted) throw failure;
    if (failure instanceof ApplicationFailure && (failure.nonRetryable || (failure.type && isUncounted(failure.type, options)))) throw failure;
    const failures = previous + 1;
    beat(failures);
    const message = failure instanceof Error ? failure.message : String(failure);
    if (failures < budget.maximumAttempts) throw failure;
    throw ApplicationFailure.create({
      message: `${message} [${failures} of ${budget.maximumAttempts} attempts failed]`,
      type: failure instanceof ApplicationFailure ? failure.type ?? undefined : undefined,
      nonRetryable: true,
      details: failure instanceof ApplicationFailure ? failure.details ?? undefined : undefined,
    });
  } finally {
    for (const timer of timers) clearTimeout(timer);
    clearTimeout(idle);
    release();
  }
}
