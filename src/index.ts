// durable-agent: what a first agent needs — defining agents and tools, starting and answering runs,
// a worker, the failures to catch, eval suites. Everything else sits behind the subpaths ./client,
// ./worker, ./tools, ./testing, ./codec, ./telemetry (see README, "The package's entry points");
// test/package checks that this entry stays small.

// Defining agents and tools.
export * from './entries/definitions';

// Starting runs, following them, answering what they wait for.
export {
  AgentClient,
  AgentRun,
  type AgentClientOptions,
  type AgentEvent,
  type AgentRunResult,
  type AgentRunState,
  type ApprovalDecision,
  type PendingCall,
  type RunStatus,
  type StartOptions,
} from './entries/client';

// A worker for the agents (its code loads when first called).
export { createWorker, bundleAgentWorkflows } from './entries/lazy-worker';
export type { AgentWorker, CreateWorkerOptions } from './worker/create-worker';

// What a run or a request that did not succeed throws: the very classes the client uses.
export {
  ApplicationFailure,
  CancelledFailure,
  FailureTypes,
  RunRequestRejectedError,
  StartInputTooLargeError,
  TemporalConnectionError,
  TerminatedFailure,
  TimeoutFailure,
  WorkflowFailedError,
  type FailureType,
} from './entries/client';

// Eval suites (`durable-agent eval`); their types and the report's are in durable-agent/testing.
export { defineEvalCase, defineEvalSuite } from './eval/define-suite';
