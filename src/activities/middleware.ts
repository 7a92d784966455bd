import type { RuntimeContext } from '../common/runtime';
import type { CallModelInput, CallModelOutput } from '../common/contracts/model-call';
import type { ToolCallResult } from '../common/contracts/tool-calls';

export interface ToolCallInfo {
  agent: string;
  tool: string;
  callId: string;
  input: unknown;
  runtime: RuntimeContext;
  workflowId: string;
}

/**
 * Wraps model and tool calls inside their activities, `next()` style: for audit logs, rate
 * limits, argument rewriting or redaction. A tool middleware may return a result without
 * calling next, which stops the call.
 */
export interface Middleware {
  name?: string;
  onModelCall?(call: CallModelInput, next: (call: CallModelInput) => Promise<CallModelOutput>): Promise<CallModelOutput>;
  onToolCall?(call: ToolCallInfo, next: (call: ToolCallInfo) => Promise<ToolCallResult>): Promise<ToolCallResult>;
}

type Step<C, R> = (call: C, next: (call: C) => Promise<R>) => Promise<R>;

/** Compose so that the first middleware is the outermost. */
export function composeMiddleware<C, R>(steps: Step<C, R>[], last: (call: C) => Promise<R>): (call: C) => Promise<R> {
  return steps.reduceRight<(call: C) => Promise<R>>((next, step) => (call) => step(call, next), last);
}
