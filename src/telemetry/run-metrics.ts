// Workflow code (sandbox-safe): what the agent workflow counts. The workflow's metric meter and
// this sink stay silent while a workflow replays, so every count is made once.
import { metricMeter, proxySinks, workflowInfo } from '@temporalio/workflow';
import { AgentMetric } from './metric-names';
import type { AgentMetricsSinks } from './run-metrics-sink';

export type PermissionDecider = 'rules' | 'user' | 'timeout';

export function countPermissionDecision(tool: string, decision: 'allow' | 'deny' | 'ask', by: PermissionDecider): void {
  metricMeter
    .createCounter(AgentMetric.permissionDecisions, 'decisions', 'Permission decisions on tool calls, by tool, decision and who decided')
    .add(1, { tool, decision, by });
}

const sinks = proxySinks<AgentMetricsSinks>();

export function countApprovalWait(agent: string, delta: 1 | -1): void {
  if (!workflowInfo().unsafe.isReplaying) sinks.durableAgentMetrics.awaitingApproval(agent, delta);
}
