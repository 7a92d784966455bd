import type { MetricUpDownCounter } from '@temporalio/common';
import { Runtime, type InjectedSinks } from '@temporalio/worker';
import { AgentMetric } from './metric-names';
import type { AgentMetricsSinks } from './run-metrics-sink';

/**
 * The worker's side of the workflow's metrics sink. The counter lives in this process: summed over
 * the workers it is the number of runs waiting for a person, except for what a restarted worker or
 * a run terminated while waiting leaves behind (the exact list: `durable-agent pending`).
 */
export function agentMetricsSinks(): InjectedSinks<AgentMetricsSinks> {
  let waiting: MetricUpDownCounter | undefined;
  return {
    durableAgentMetrics: {
      awaitingApproval: {
        fn: (info, agent, delta) => {
          waiting ??= Runtime.instance().metricMeter.createUpDownCounter!(
            AgentMetric.runsAwaitingApproval,
            'runs',
            'Runs waiting for a person to approve or deny a tool call',
          );
          waiting.add(delta, { namespace: info.namespace, taskQueue: info.taskQueue, agent });
        },
      },
    },
  };
}
