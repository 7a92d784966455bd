import type { Sinks } from '@temporalio/workflow';

/** A sink of the agent workflow for what the workflow's own metric meter cannot count: an up-down counter. */
export interface AgentMetricsSinks extends Sinks {
  durableAgentMetrics: {
    /** +1 when a run starts waiting for a person's decision, -1 when the wait ends. */
    awaitingApproval(agent: string, delta: number): void;
  };
}
