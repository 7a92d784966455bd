/** Failure type names; errors crossing the sandbox are matched by these, never by instanceof. */
export const FailureTypes = {
  /** An unexpected error inside the workflow code. */
  workflowInternal: 'Agent.WorkflowInternal',
  /** Raised by runs of 0.5.0 and before; since 0.6.0 a run waits for a worker that serves its agent and fails with noWorkerServes. */
  unknownAgent: 'Agent.UnknownAgent',
  emptyReplies: 'Agent.EmptyReplies',
  modelRateLimit: 'Model.RateLimit',
  modelServer: 'Model.ServerError',
  modelTimeout: 'Model.Timeout',
  modelConnection: 'Model.Connection',
  modelBadRequest: 'Model.BadRequest',
  /** The provider says the conversation is longer than the model's context (a 400; llama.cpp's server a 500). */
  modelContextTooLong: 'Model.ContextTooLong',
  modelAuth: 'Model.Authentication',
  modelNotFound: 'Model.NotFound',
  modelInvalidResponse: 'Model.InvalidResponse',
  /**
   * A model call waited for its model's fleet-wide quota longer than one attempt may last: the next
   * attempt (after the rest of the wait) keeps its place. Never counted as the model's failure.
   */
  modelQuotaWait: 'Model.QuotaWait',
  /** A tool signalled an infrastructure fault that a retry may fix. */
  toolRetryable: 'Tool.Retryable',
  /** A tool call ran past its own time limit (its `timeout`). */
  toolTimeout: 'Tool.Timeout',
  /** A step found no worker that could finish it within its total timeout (workers lost, timed out, or the server unreachable). */
  stepTimeout: 'Agent.StepTimeout',
  /** The worker that got the call lacks the tool (e.g. its MCP server is not connected). */
  toolUnavailable: 'Tool.Unavailable',
  /**
   * The worker that got a step does not serve the run's agent (a fleet of several agents modules on
   * one task queue): retried until a worker that does takes it, and never counted as the step's failure.
   */
  notServedHere: 'Agent.NotServedHere',
  /** No worker of the task queue took up the run's agent within the time a run waits for one. */
  noWorkerServes: 'Agent.NoWorkerServes',
  /** An update answered a call that waits in a sub-agent run; its details hold that run's workflow id. */
  heldBySubAgent: 'Agent.HeldBySubAgent',
  /** The model's answers did not fit the agent's output schema, fed back `maxRetries` times; the message names what is wrong. */
  invalidOutput: 'Agent.InvalidOutput',
  /** The worker that got the check of a typed answer has the agent without its output schema (another version of the module). */
  outputSchemaMissing: 'Agent.OutputSchemaMissing',
} as const;
