// Workflow code (sandbox-safe): events on the span the workflow code runs under — RunWorkflow, or
// the HandleSignal / HandleUpdate span of the request that carried a decision. Without tracing
// there is no active span and nothing happens. A replay rebuilds the same span with the same
// events, and only the first non-replayed end of a span is exported, so no event is doubled.
import { trace } from '@opentelemetry/api';
import { AgentAttr, GenAi, PERMISSION_EVENT } from './gen-ai';
import type { PermissionDecider } from './run-metrics';

export function tracePermissionDecision(call: { callId: string; tool: string }, decision: 'allow' | 'deny' | 'ask', by: PermissionDecider, reason?: string): void {
  trace.getActiveSpan()?.addEvent(PERMISSION_EVENT, {
    [GenAi.toolName]: call.tool,
    [GenAi.toolCallId]: call.callId,
    [AgentAttr.permissionDecision]: decision,
    [AgentAttr.permissionBy]: by,
    ...(reason ? { [AgentAttr.permissionReason]: reason } : {}),
  });
}
