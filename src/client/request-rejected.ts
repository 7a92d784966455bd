import { WorkflowUpdateFailedError } from '@temporalio/client';

/** A run refused a request (an unknown call id, invalid edited input, …); the message says why. */
export class RunRequestRejectedError extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'RunRequestRejectedError';
  }
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
