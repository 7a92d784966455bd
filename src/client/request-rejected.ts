import { WorkflowUpdateFailedError } from '@temporalio/client';

/** A run refused a request (an unknown call id, invalid edited input, …); the message says why. */
export class RunRequestRejectedError extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'RunRequestRejectedError';
  }
}

/** The server's own answer to a request for a run that has closed (or is gone), as opposed to the run's refusal. */
export function isClosedRunError(error: unknown): boolean {
  return (error as Error)?.name === 'WorkflowNotFoundError' || /workflow execution already completed/i.test((error as Error)?.message ?? '');
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
