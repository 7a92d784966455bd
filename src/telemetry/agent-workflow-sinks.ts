import type { InjectedSinks } from '@temporalio/worker';
import type { Tracing } from './tracing';
import { workflowSpanSinks } from './worker-tracing';
import { agentMetricsSinks } from './worker-metrics-sinks';

export function workerSinks(tracing: Tracing | undefined): InjectedSinks<any> {
  return { ...workflowSpanSinks(tracing), ...agentMetricsSinks() };
}

/**
 * The sinks the agent workflow code calls. createWorker registers them; give them to a worker of
 * your own that runs the agent workflow, e.g. `Worker.runReplayHistory({ workflowBundle, sinks:
 * agentWorkflowSinks() }, history)`, or it logs each call as an unregistered sink.
 */
export function agentWorkflowSinks(): InjectedSinks<any> {
  return workerSinks(undefined);
}
