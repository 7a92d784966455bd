/**
 * What a step (a tool call, a model call, a compaction) may spend of its own failures. The
 * activity enforces it, not Temporal: Temporal retries the activity without an attempt cap within
 * the step's total timeout, so a lost worker, a heartbeat timeout or an unreachable server never
 * uses up the step; only the step's own failures (a tool's RetryableToolError or time limit, a
 * model's HTTP errors or stalled stream) count, and the activity makes the last one final.
 */
export interface AttemptBudget {
  /** The step's own failures allowed: the one that reaches this number is final. */
  maximumAttempts: number;
  /** One attempt's own time limit in ms: running past it is the step's own failure. */
  timeoutMs: number;
}

/** What a step's activity heartbeats carry besides their own details: the count survives retries and crashes. */
export interface AttemptHeartbeat {
  ownFailures?: number;
}

export function ownFailuresIn(details: unknown): number {
  const count = (details as AttemptHeartbeat | null | undefined)?.ownFailures;
  return typeof count === 'number' && Number.isInteger(count) && count > 0 ? count : 0;
}
