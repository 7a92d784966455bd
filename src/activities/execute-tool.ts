import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { FailureTypes } from '../common/failures';
import type { AgentRegistry } from '../toolkit/agent-registry';
import type { ToolContext } from '../toolkit/define-tool';
import { RetryableToolError, ToolSuspendedError } from '../toolkit/tool-errors';
import { boundToolResult, errorResult, toToolResult } from '../toolkit/tool-result';
import type { ExecuteToolInput, ExecuteToolOutput, ToolCallResult } from './activity-types';
import { withAutoHeartbeat } from './auto-heartbeat';
import { requireAgent } from './describe-agent';
import { composeMiddleware, type Middleware, type ToolCallInfo } from './middleware';
import type { ActivityTracing } from '../telemetry/activity-tracing';
import { observeToolCall } from '../telemetry/observe-tool-call';

/** Marks a suspension so it passes through middleware untouched; turned back into a result below. */
class SuspendSignal extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

function isApplicationFailure(error: unknown): error is ApplicationFailure {
  return error instanceof ApplicationFailure;
}

export function executeToolActivity(registry: AgentRegistry, middleware: Middleware[], tracing?: ActivityTracing) {
  const steps = middleware.flatMap((m) => (m.onToolCall ? [m.onToolCall.bind(m)] : []));

  return async function executeTool(input: ExecuteToolInput): Promise<ExecuteToolOutput> {
    const activity = Context.current();
    const agent = requireAgent(registry, input.agent);
    const tool = agent.toolkit.get(input.tool);
    if (!tool?.execute) {
      const why = tool ? 'it has no execute function here' : 'it is not registered here; is its MCP server connected?';
      throw ApplicationFailure.retryable(
        `Tool '${input.tool}' of agent '${input.agent}' cannot run on this worker (${why}); another worker may run it.`,
        FailureTypes.toolUnavailable,
      );
    }
    const { workflowId, runId } = activity.info.workflowExecution ?? { workflowId: 'standalone', runId: '' };
    const ctx: ToolContext = {
      runtime: input.runtime,
      agent: input.agent,
      workflowId,
      runId,
      callId: input.callId,
      idempotencyKey: `${workflowId}:${input.callId}`,
      signal: activity.cancellationSignal,
      heartbeat: (details) => activity.heartbeat(details),
      suspend: (reason = 'waiting for an external result') => {
        throw new ToolSuspendedError(reason);
      },
    };

    const innermost = async (call: ToolCallInfo): Promise<ToolCallResult> => {
      try {
        const value = await tool.execute!(call.input, ctx);
        return toToolResult(value, input.maxResultChars);
      } catch (error) {
        if (error instanceof ToolSuspendedError) throw new SuspendSignal(error.reason);
        if (error instanceof RetryableToolError) throw ApplicationFailure.retryable(error.message, FailureTypes.toolRetryable);
        if (isApplicationFailure(error)) throw error;
        if (activity.cancellationSignal.aborted) throw error;
        const message = error instanceof Error ? error.message : String(error);
        return errorResult(`Error: Tool execution failed: ${message || 'unknown error'}`, input.maxResultChars);
      }
    };
    const run = composeMiddleware<ToolCallInfo, ToolCallResult>(steps, innermost);
    const call: ToolCallInfo = { agent: input.agent, tool: input.tool, callId: input.callId, input: input.input, runtime: input.runtime, workflowId };
    const observed = { agent: input.agent, tool: input.tool, callId: input.callId, description: tool.spec.description, workflowId, input: input.input };
    return observeToolCall(tracing, observed, async (): Promise<ExecuteToolOutput> => {
      try {
        const result = await withAutoHeartbeat(() => run(call));
        if (result.content === '') {
          return { kind: 'result', result: errorResult('Error: Tool execution failed: Tool completed without returning a result') };
        }
        // Once more after the middleware, which may have put a result of any size in place.
        return { kind: 'result', result: boundToolResult(result, input.maxResultChars) };
      } catch (error) {
        if (error instanceof SuspendSignal) return { kind: 'suspended', reason: error.reason };
        throw error;
      }
    });
  };
}
