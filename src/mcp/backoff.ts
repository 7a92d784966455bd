export interface BackoffOptions {
  initialDelayMs: number;
  maxDelayMs: number;
  factor: number;
}

export const DEFAULT_RECONNECT_BACKOFF: BackoffOptions = { initialDelayMs: 1000, maxDelayMs: 60_000, factor: 2 };

/** Delay before retry number `attempt` (1-based), capped, with ±20% jitter so workers do not retry in step. */
export function backoffDelayMs(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  const base = Math.min(options.maxDelayMs, options.initialDelayMs * options.factor ** Math.max(0, attempt - 1));
  return Math.min(options.maxDelayMs, Math.round(base * (0.8 + 0.4 * random())));
}
