import type { RetryPolicy } from '@temporalio/common';
import type { ToolSpec } from '../common/tools';

export const DEFAULT_TOOL_TIMEOUT = '5 minutes';
export const DEFAULT_TOOL_HEARTBEAT_TIMEOUT = '30s';

/**
 * A tool's own errors never reach these retries: they become results for the model. What is
 * retried are infrastructure faults (a lost worker, a timeout, a RetryableToolError). Read-only
 * tools retry freely; side-effecting tools get fewer attempts and should use ctx.idempotencyKey.
 */
export function toolRetryPolicy(spec: ToolSpec): RetryPolicy {
  const base: RetryPolicy = spec.readOnly
    ? { maximumAttempts: 5, initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' }
    : { maximumAttempts: 3, initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '10s' };
  return { ...base, ...(spec.retry ?? {}) };
}
