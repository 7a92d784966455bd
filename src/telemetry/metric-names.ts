/** The project's metrics, as Temporal's runtime exports them (Prometheus: these names, no prefix). */
export const AgentMetric = {
  modelCalls: 'durable_agent_model_calls',
  tokens: 'durable_agent_tokens',
  modelLatency: 'durable_agent_model_latency',
  toolCalls: 'durable_agent_tool_calls',
  permissionDecisions: 'durable_agent_permission_decisions',
  runsAwaitingApproval: 'durable_agent_runs_awaiting_approval',
  stepsRefused: 'durable_agent_steps_refused',
} as const;
