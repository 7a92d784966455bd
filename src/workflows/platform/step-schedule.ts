import type { ActivityOptions, Duration } from '@temporalio/common';
import { msToNumber } from '@temporalio/common/lib/time';
import type { AttemptBudget } from '../../common/contracts/attempt-budget';

/** Temporal's start-to-close stands behind the activity's own time limit, for a worker too stuck to enforce it. */
export const START_TO_CLOSE_GRACE_MS = 15_000;
/** A step's total timeout is at least this, whatever its own attempts would take. */
export const MIN_TOTAL_TIMEOUT_MS = 60 * 60_000;

export interface StepRetry {
  /** One attempt's own time limit. */
  timeout: Duration;
  heartbeatTimeout: Duration;
  /** The step's own failures allowed (see AttemptBudget). */
  maximumAttempts: number;
  /** All attempts together, crashes included; by default at least an hour and twice what its own attempts may take. */
  totalTimeout?: Duration;
  initialInterval: Duration;
  backoffCoefficient: number;
  maximumInterval: Duration;
}

export interface StepSchedule {
  options: Pick<ActivityOptions, 'startToCloseTimeout' | 'heartbeatTimeout' | 'scheduleToCloseTimeout' | 'retry'>;
  budget: AttemptBudget;
}

/**
 * Two budgets for one step: its own failures, counted by the activity against `maximumAttempts`;
 * and time, for everything else. Temporal retries without an attempt cap (no `maximumAttempts`
 * in the policy), so dead workers, heartbeat timeouts and an unreachable server cost attempts of
 * nobody; the total timeout (schedule-to-close) bounds how long that may go on.
 */
export function stepSchedule(step: StepRetry): StepSchedule {
  const timeoutMs = msToNumber(step.timeout);
  const ownTime = 2 * step.maximumAttempts * timeoutMs;
  const totalMs = step.totalTimeout !== undefined ? msToNumber(step.totalTimeout) : Math.max(MIN_TOTAL_TIMEOUT_MS, ownTime);
  const startToCloseMs = timeoutMs + START_TO_CLOSE_GRACE_MS;
  return {
    budget: { maximumAttempts: step.maximumAttempts, timeoutMs },
    options: {
      startToCloseTimeout: startToCloseMs,
      heartbeatTimeout: step.heartbeatTimeout,
      scheduleToCloseTimeout: Math.max(totalMs, startToCloseMs),
      retry: { initialInterval: step.initialInterval, backoffCoefficient: step.backoffCoefficient, maximumInterval: step.maximumInterval },
    },
  };
}
