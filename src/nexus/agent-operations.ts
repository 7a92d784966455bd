import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { startWorkflow, WorkflowRunOperationHandler } from '@temporalio/nexus';
import * as nexus from 'nexus-rpc';
import type { AgentRunResult } from '../common/run';
import { agentStartRequest } from '../client/start-request';
import { parseOperationInput, type AgentOperationInput } from './operation-input';
import { agentNexusService, type AgentNexusServiceOptions } from './service-definition';

/** The operation of one agent: its start begins a run exactly as AgentClient.start would, and its result is the run's. */
function agentOperation(agent: string): WorkflowRunOperationHandler<AgentOperationInput, AgentRunResult> {
  return new WorkflowRunOperationHandler<AgentOperationInput, AgentRunResult>(async (ctx, input) => {
    const request = agentStartRequest(agent, parseOperationInput(agent, input));
    // The worker's own task queue; the run is a normal run: listed, in the inbox, answered where it lives.
    // Cancelling the operation cancels the workflow (the handler's default cancel), and the run ends as cancelled.
    try {
      return (await startWorkflow(ctx, request.workflowType, {
        workflowId: request.workflowId,
        args: request.args,
        workflowIdReusePolicy: request.workflowIdReusePolicy,
        typedSearchAttributes: request.typedSearchAttributes,
        staticSummary: request.staticSummary,
        ...(request.priority ? { priority: request.priority } : {}),
      })) as never;
    } catch (error) {
      // A retried start of this operation finds its own run (Temporal dedups it by the request's id); another's is a conflict.
      if (error instanceof WorkflowExecutionAlreadyStartedError) {
        throw new nexus.HandlerError('CONFLICT', `A run with the id '${request.workflowId}' exists already: give another id, or none.`, { retryableOverride: false });
      }
      throw error;
    }
  });
}

/**
 * The handler of the agents' Nexus service, for a worker's `nexusServices` (createWorker does this
 * with `nexus: true`). Runs start on the task queue of the worker that serves it.
 */
export function agentNexusServiceHandler(agents: readonly string[], options: AgentNexusServiceOptions = {}): nexus.ServiceHandler {
  const definition = agentNexusService(agents, options);
  const handlers: Record<string, WorkflowRunOperationHandler<AgentOperationInput, AgentRunResult>> = {};
  for (const agent of agents) handlers[agent] = agentOperation(agent);
  return nexus.serviceHandler(definition as nexus.ServiceDefinition, handlers as nexus.ServiceHandlerFor);
}
