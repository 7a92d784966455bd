import { DEFAULT_MAX_PAYLOAD_BYTES, sizeProblem } from '../common/boundary/limits';

/**
 * A run whose input (prompt, runtime context) is over the size limit, refused before anything is
 * sent: Temporal would refuse it too, but only after retrying, and without saying why.
 */
export class StartInputTooLargeError extends Error {
  constructor(
    readonly workflowId: string,
    message: string,
  ) {
    super(message);
    this.name = 'StartInputTooLargeError';
  }
}

/** Throws StartInputTooLargeError when the workflow input is larger (bytes of JSON) than `maxBytes`. */
export function checkStartInputSize(agent: string, workflowId: string, input: unknown, maxBytes = DEFAULT_MAX_PAYLOAD_BYTES): void {
  const problem = sizeProblem(input, maxBytes, 'its input (the prompt and runtime context)');
  if (problem) throw new StartInputTooLargeError(workflowId, `Run ${workflowId} of ${agent} was not started: ${problem}`);
}
