// Workflow code (sandbox-safe): events on the span the workflow code runs under — RunWorkflow, or
// the HandleSignal / HandleUpdate span of the request that carried a decision. Without tracing
// there is no active span and nothing happens, and the OpenTelemetry API is not even loaded (each
// cached run would hold its own copy). A replay rebuilds the same span with the same
// events, and only the first non-replayed end of a span is exported, so no event is doubled.
import { isTracedRun } from './traced-run';
import { AgentAttr, GenAi, PERMISSION_EVENT } from './gen-ai';
import type { PermissionDecider } from './run-metrics';

export function tracePermissionDecision(call: { callId: string; tool: string }, decision: 'allow' | 'deny' | 'ask', by: PermissionDecider, reason?: string): void {
  if (!isTracedRun()) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { trace } = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
  trace.getActiveSpan()?.addEvent(PERMISSION_EVENT, {
    [GenAi.toolName]: call.tool,
    [GenAi.toolCallId]: call.callId,
    [AgentAttr.permissionDecision]: decision,
    [AgentAttr.permissionBy]: by,
    ...(reason ? { [AgentAttr.permissionReason]: reason } : {}),
  });
}
