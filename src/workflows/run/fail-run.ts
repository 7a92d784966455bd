import { ActivityFailure, ApplicationFailure, TemporalFailure } from '@temporalio/workflow';
import { FailureTypes } from '../../common/failures';
import { describeStepFailure, stepFailureType } from '../platform';

/**
 * Every error leaving the workflow becomes a workflow failure, never a workflow task that
 * retries forever. Activity failures keep their cause's type (e.g. `Model.BadRequest`); a model
 * call no worker could finish is `Model.Timeout`, never an internal error.
 */
export function toWorkflowFailure(error: unknown): TemporalFailure {
  if (error instanceof ActivityFailure) {
    return ApplicationFailure.create({ message: describeStepFailure(error), type: stepFailureType(error), nonRetryable: true, cause: error });
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
