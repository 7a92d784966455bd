import { ActivityFailure, ApplicationFailure, TemporalFailure } from '@temporalio/workflow';
import { FailureTypes } from '../common/failures';

/**
 * Every error leaving the workflow becomes a workflow failure, never a workflow task that
 * retries forever. Activity failures keep their cause's type (e.g. `Model.BadRequest`).
 */
export function toWorkflowFailure(error: unknown): TemporalFailure {
  if (error instanceof ActivityFailure) {
    const cause = error.cause;
    const type = cause instanceof ApplicationFailure && cause.type ? cause.type : FailureTypes.workflowInternal;
    return ApplicationFailure.create({ message: cause?.message ?? error.message, type, nonRetryable: true, cause: error });
  }
  if (error instanceof ApplicationFailure) return error;
  const err = error instanceof Error ? error : new Error(String(error));
  return ApplicationFailure.create({
    message: `Unexpected error in the agent workflow: ${err.message}`,
    type: FailureTypes.workflowInternal,
    nonRetryable: true,
    cause: err,
  });
}
