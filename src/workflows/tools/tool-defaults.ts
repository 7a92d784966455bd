import type { Duration } from '@temporalio/common';
import type { ToolSpec } from '../../common/tools';
import { stepSchedule, type StepSchedule } from '../platform';

export const DEFAULT_TOOL_TIMEOUT = '5 minutes';
export const DEFAULT_TOOL_HEARTBEAT_TIMEOUT = '30s';

interface Defaults {
  maximumAttempts: number;
  initialInterval: Duration;
  backoffCoefficient: number;
  maximumInterval: Duration;
}

const READ_ONLY: Defaults = { maximumAttempts: 5, initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' };
const SIDE_EFFECTING: Defaults = { maximumAttempts: 3, initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '10s' };

/**
 * A tool's own errors never reach these retries: they become results for the model. What counts
 * against `maximumAttempts` is what a retry may fix: a RetryableToolError, a call past its
 * `timeout` (a worker that lacks the tool is retried without counting). Read-only tools get more of those; side-effecting
 * tools fewer, and should use ctx.idempotencyKey, since a lost worker's call runs again.
 */
export function toolSchedule(spec: ToolSpec): StepSchedule {
  const retry = { ...(spec.readOnly ? READ_ONLY : SIDE_EFFECTING), ...(spec.retry ?? {}) };
  return stepSchedule({
    ...retry,
    timeout: spec.timeout ?? DEFAULT_TOOL_TIMEOUT,
    heartbeatTimeout: spec.heartbeatTimeout ?? DEFAULT_TOOL_HEARTBEAT_TIMEOUT,
    ...(spec.totalTimeout !== undefined ? { totalTimeout: spec.totalTimeout } : {}),
  });
}
