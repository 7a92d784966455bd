// durable-agent: what a user writes. The rest sits behind subpaths: ./client, ./worker, ./testing,
// ./codec, ./telemetry, ./tools (see README, "The package's entry points").
export * from './entries/definitions';
export * from './entries/client';
export { createWorker, bundleAgentWorkflows } from './entries/lazy-worker';
export type { AgentWorker, CreateWorkerOptions } from './worker/create-worker';
export type { AgentWorkflowsBundle, BundleAgentWorkflowsOptions } from './worker/bundle-workflows';
export type { Middleware, ToolCallInfo } from './activities/middleware';
export { defineEvalCase, defineEvalSuite, type EvalCaseInput, type EvalSuiteInput, type EvalToolStub } from './eval/define-suite';
export type { ArgMatcher, ArgsMatcher } from './eval/arg-matchers';
export type { EvalReport, EvalRunReport, EvalCaseSummary, ExpectationResult } from './eval/eval-report';
