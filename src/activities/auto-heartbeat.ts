import { Context } from '@temporalio/activity';

/**
 * Heartbeat while `work` runs, so a worker that dies mid-call is noticed within the heartbeat
 * timeout instead of the whole start-to-close timeout. Does nothing without a heartbeat timeout.
 */
export async function withAutoHeartbeat<T>(work: () => Promise<T>, details?: () => unknown): Promise<T> {
  const ctx = Context.current();
  const timeoutMs = ctx.info.heartbeatTimeoutMs;
  if (!timeoutMs) return work();
  const timer = setInterval(() => ctx.heartbeat(details?.()), Math.max(200, Math.floor(timeoutMs / 3)));
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
