// Workflow code (sandbox-safe).
import { countPermissionDecision, type PermissionDecider } from './run-metrics';
import { tracePermissionDecision } from './run-trace-events';

/** A permission decision on one tool call, counted and put on the trace. */
export function permissionDecided(call: { callId: string; tool: string }, decision: 'allow' | 'deny' | 'ask', by: PermissionDecider, reason?: string): void {
  countPermissionDecision(call.tool, decision, by);
  tracePermissionDecision(call, decision, by, reason);
}
