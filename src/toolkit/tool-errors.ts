/** Throw from a tool for an infrastructure fault that a retry may fix; Temporal retries the call. */
export class RetryableToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetryableToolError';
  }
}

/** Thrown by `ctx.suspend()`: the call waits for a result submitted from outside. */
export class ToolSuspendedError extends Error {
  constructor(readonly reason: string) {
    super(`Tool suspended: ${reason}`);
    this.name = 'ToolSuspendedError';
  }
}
