/**
 * Settings the worker cannot start without are missing or invalid. Restarting does not help:
 * the worker entry point prints the message and exits cleanly instead of failing.
 */
export class WorkerConfigurationError extends Error {
  override readonly name = 'WorkerConfigurationError';
}
