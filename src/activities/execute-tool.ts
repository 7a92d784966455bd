import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { FailureTypes } from '../common/failures';
import type { ToolContext } from '../toolkit/define-tool';
import { RetryableToolError, ToolSuspendedError } from '../toolkit/tool-errors';
import { describeThrown } from '../toolkit/describe-thrown';
import { boundToolResult, errorResult, toToolResult } from '../toolkit/tool-result';
import type { ExecuteToolInput, ExecuteToolOutput, RanToolOutput, ToolCallResult } from '../common/contracts/tool-calls';
import { prepareOne } from './prepare-tool-calls';
import { runAttempt, type AttemptControls } from './step-attempt';
import type { ToolResultCache } from './tool-result-cache';
import type { ServedAgents } from './served-agent';
import type { ApprovalPolicies } from '../policy';
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

export function executeToolActivity(agents: ServedAgents, middleware: Middleware[], tracing?: ActivityTracing, toolResults?: ToolResultCache, policies?: ApprovalPolicies) {
  const steps = middleware.flatMap((m) => (m.onToolCall ? [m.onToolCall.bind(m)] : []));

  return async function executeTool(input: ExecuteToolInput): Promise<ExecuteToolOutput> {
    // Another worker may have the tool (its MCP server connected): that is for the total timeout to bound, not the call's attempts.
    const attempt = { budget: input.budget, subject: `Tool '${input.tool}'`, timeoutType: FailureTypes.toolTimeout, uncounted: [FailureTypes.toolUnavailable] };
    return runAttempt(attempt, async (controls) => {
      if (!input.check) return executeOnce(input, controls);
      // Checked here rather than in a local activity of its own: one activity for a call the rules allow.
      const { call, mode, sessionRules } = input.check;
      const prepared = await prepareOne(agents.require(input.agent), call, { mode, sessionRules, runtime: input.runtime, onMissing: 'fail' }, policies);
      if (prepared.outcome !== 'run') return { kind: 'checked', prepared };
      return { kind: 'checked', prepared, ran: await executeOnce({ ...input, input: prepared.input }, controls) };
    });
  };

  async function executeOnce(input: ExecuteToolInput, controls: AttemptControls): Promise<RanToolOutput> {
    const activity = Context.current();
    const agent = agents.require(input.agent);
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
      signal: controls.signal,
      heartbeat: (details) => controls.heartbeat({ details }),
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
        if (controls.signal.aborted) throw error;
        return errorResult(`Error: Tool execution failed: ${describeThrown(error) || 'unknown error'}`, input.maxResultChars);
      }
    };
    const run = composeMiddleware<ToolCallInfo, ToolCallResult>(steps, innermost);
    const call: ToolCallInfo = { agent: input.agent, tool: input.tool, callId: input.callId, input: input.input, runtime: input.runtime, workflowId };
    const observed = { agent: input.agent, tool: input.tool, callId: input.callId, description: tool.spec.description, workflowId, input: input.input };
    return observeToolCall(tracing, observed, async (): Promise<RanToolOutput> => {
      try {
        const result = await run(call);
        if (result.content === '') {
          return { kind: 'result', result: errorResult('Error: Tool execution failed: Tool completed without returning a result') };
        }
        // Once more after the middleware, which may have put a result of any size in place.
        const bounded = boundToolResult(result, input.maxResultChars);
        toolResults?.remember(workflowId, input.callId, bounded.content);
        return { kind: 'result', result: bounded };
      } catch (error) {
        if (error instanceof SuspendSignal) return { kind: 'suspended', reason: error.reason };
        throw error;
      }
    });
  }
}
