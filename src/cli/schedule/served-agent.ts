import { temporal } from '@temporalio/proto';
import type { AgentClient } from '../../client/agent-client';
import { agentsOfIdentity } from '../../worker/fleet-identity';
import { didYouMean } from '../did-you-mean';

export type ServedAgentCheck = { outcome: 'served' } | { outcome: 'not_served'; message: string } | { outcome: 'no_worker'; message: string };

/**
 * Whether a worker of the task queue serves `agent`, as `start` finds out (a run refused by workers
 * that serve other agents), but read from the task queue's pollers before anything is created: each
 * durable-agent worker names its agents in its identity (worker/fleet-identity.ts). No worker seen
 * in the server's last few minutes: nothing to check against, which the caller only warns about
 * (the schedule may be made before its workers are deployed).
 */
export async function checkServedAgent(client: AgentClient, agent: string): Promise<ServedAgentCheck> {
  const taskQueue = client.config.taskQueue;
  const served = new Set<string>();
  for (const taskQueueType of [temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW, temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY]) {
    const response = await client.client.workflowService.describeTaskQueue({
      namespace: client.config.namespace,
      taskQueue: { name: taskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      taskQueueType,
    });
    for (const poller of response.pollers ?? []) for (const name of agentsOfIdentity(poller.identity ?? '') ?? []) served.add(name);
  }
  if (served.has(agent)) return { outcome: 'served' };
  if (served.size === 0) {
    return { outcome: 'no_worker', message: `No worker polls task queue '${taskQueue}' now, so agent '${agent}' could not be checked; its fires wait for a worker that serves it.` };
  }
  const known = [...served].sort();
  return {
    outcome: 'not_served',
    message: `No worker of task queue '${taskQueue}' serves agent '${agent}' (its workers serve ${known.join(', ')}).${didYouMean(agent, known)} Nothing was created.`,
  };
}
