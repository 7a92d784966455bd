import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/workflow';
import { FailureTypes } from '../../common/failures';

const MODEL_ACTIVITIES: ReadonlySet<string> = new Set(['callModel', 'compactConversation']);

function timeoutKind(failure: TimeoutFailure): string {
  if (failure.timeoutType === 'SCHEDULE_TO_CLOSE') return 'its total timeout';
  if (failure.timeoutType === 'HEARTBEAT') return 'its heartbeat timeout';
  return 'its timeout';
}

/** Why a step's activity failed for good, in words for the model or the run's failure. */
export function describeStepFailure(error: ActivityFailure): string {
  const cause = error.cause;
  if (cause instanceof TimeoutFailure) {
    const last = cause.cause?.message ? `; the last attempt: ${cause.cause.message}` : '';
    return `no worker finished it within ${timeoutKind(cause)} (workers lost or timed out, or Temporal unreachable)${last}`;
  }
  return cause?.message ?? error.message;
}

/** The failure type a run fails with when a step's activity failed for good: the cause's own, else the step's kind. */
export function stepFailureType(error: ActivityFailure): string {
  const cause = error.cause;
  if (cause instanceof ApplicationFailure && cause.type) return cause.type;
  const model = MODEL_ACTIVITIES.has(error.activityType ?? '');
  if (cause instanceof TimeoutFailure) return model ? FailureTypes.modelTimeout : FailureTypes.stepTimeout;
  return FailureTypes.workflowInternal;
}
