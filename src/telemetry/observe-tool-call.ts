import { context, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import type { RanToolOutput } from '../common/contracts/tool-calls';
import type { ActivityTracing } from './activity-tracing';
import { recordToolCall } from './activity-metrics';
import { AgentAttr, GenAi, GenAiOperation } from './gen-ai';
import { failSpan } from './span-failure';

export interface ObservedToolCall {
  agent: string;
  tool: string;
  callId: string;
  description?: string;
  workflowId: string;
  input: unknown;
}

function outcomeOf(output: RanToolOutput): string {
  return output.kind === 'suspended' ? 'suspended' : output.result.state;
}

function callAttributes(call: ObservedToolCall, captureContent: boolean): Attributes {
  return {
    [GenAi.operationName]: GenAiOperation.executeTool,
    [GenAi.toolName]: call.tool,
    [GenAi.toolCallId]: call.callId,
    [GenAi.toolType]: 'function',
    [GenAi.agentName]: call.agent,
    [GenAi.conversationId]: call.workflowId,
    ...(call.description ? { [GenAi.toolDescription]: call.description } : {}),
    ...(captureContent ? { [GenAi.toolCallArguments]: JSON.stringify(call.input ?? null) } : {}),
  };
}

async function traced(tracing: ActivityTracing, call: ObservedToolCall, run: () => Promise<RanToolOutput>): Promise<RanToolOutput> {
  const span = tracing.tracer.startSpan(`${GenAiOperation.executeTool} ${call.tool}`, {
    kind: SpanKind.INTERNAL,
    attributes: callAttributes(call, tracing.captureContent),
  });
  try {
    const output = await context.with(trace.setSpan(context.active(), span), run);
    span.setAttribute(AgentAttr.toolOutcome, outcomeOf(output));
    if (output.kind === 'result') {
      if (tracing.captureContent) span.setAttribute(GenAi.toolCallResult, output.result.content);
      // A tool's own error is a result for the model, yet the execution failed.
      if (output.result.state === 'error') {
        span.setAttribute(GenAi.errorType, 'tool_error');
        span.setStatus({ code: SpanStatusCode.ERROR, message: output.result.content.slice(0, 200) });
      }
    }
    return output;
  } catch (error) {
    span.setAttribute(AgentAttr.toolOutcome, 'failure');
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** One tool execution: an `execute_tool {tool}` span (a child of the activity's span) and the tool metric. */
export async function observeToolCall(tracing: ActivityTracing | undefined, call: ObservedToolCall, run: () => Promise<RanToolOutput>): Promise<RanToolOutput> {
  try {
    const output = await (tracing ? traced(tracing, call, run) : run());
    recordToolCall(call.tool, outcomeOf(output));
    return output;
  } catch (error) {
    recordToolCall(call.tool, 'failure');
    throw error;
  }
}
