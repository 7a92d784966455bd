import { WorkflowUpdateFailedError } from '@temporalio/client';

/** A run refused a request (an unknown call id, invalid edited input, …); the message says why. */
export class RunRequestRejectedError extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'RunRequestRejectedError';
  }
}

/** The server's own answer to a request for a run that has closed (or is gone), as opposed to the run's refusal; also once told as one (endedRunRefusal). */
export function isClosedRunError(error: unknown): boolean {
  if (error instanceof RunRequestRejectedError) return isClosedRunError(error.cause);
  return (error as Error)?.name === 'WorkflowNotFoundError' || hasEnded(error);
}

/** The server's answer for a run that exists and has closed (one it does not know stays a not-found error). */
function hasEnded(error: unknown): boolean {
  return /workflow execution already completed/i.test((error as Error)?.message ?? '');
}

/**
 * An answer (approve, deny, submit, delegate) the server refused because the run has ended, as the
 * run's refusal in the client's words; any other error as it is. A person who answers just as the
 * run finishes is told that, not given the server's error.
 */
export function endedRunRefusal(workflowId: string, error: unknown): unknown {
  return hasEnded(error) ? new RunRequestRejectedError(`run ${workflowId} has ended; none of its calls waits for an answer`, error) : error;
}

/** Temporal reports a rejected update as "Workflow Update failed"; surface the run's own reason. */
export async function unwrapUpdateFailure<T>(update: Promise<T>): Promise<T> {
  try {
    return await update;
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError && error.cause?.message) {
      throw new RunRequestRejectedError(error.cause.message, error);
    }
    throw error;
  }
}
