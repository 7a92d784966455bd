import { FailureTypes } from '../common/failures';

export { FailureTypes };
/** A failed run: run.result() throws a WorkflowFailedError whose cause is an ApplicationFailure of one of these types. */
export type FailureType = (typeof FailureTypes)[keyof typeof FailureTypes];
export type { ModelFailureDetails } from '../model/classify-model-error';
// What run.result() throws for a run that ended without an answer (the error and its possible
// causes), re-exported so they are the very classes the client uses.
export { WorkflowFailedError } from '@temporalio/client';
export { ApplicationFailure, CancelledFailure, TerminatedFailure, TimeoutFailure } from '@temporalio/common';
