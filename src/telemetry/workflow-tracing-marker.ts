/**
 * The name of an activity that a worker with tracing registers and nobody calls. Workflow code
 * cannot see the worker's options, but it can see the names of the worker's activities: a run's
 * first workflow task traces the run when this name is among them (see workflow-interceptors.ts).
 */
export const WORKFLOW_TRACING_MARKER = 'durableAgent.workflowTracing';
