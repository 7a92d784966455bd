import { hostname } from 'node:os';
import { temporal } from '@temporalio/proto';
import type { NativeConnection } from '@temporalio/worker';

const MARK = 'durable-agent';
const MAX_IDENTITY_CHARS = 400;

/**
 * The worker's identity as Temporal shows it (Web UI, `temporal task-queue describe`), with the
 * agents it serves: `4121@host durable-agent[support,billing]`. Other workers read it to tell when
 * a task queue is shared by agents modules that differ.
 */
export function fleetIdentity(agents: readonly string[]): string {
  const identity = `${process.pid}@${hostname()} ${MARK}[${[...agents].sort().join(',')}]`;
  return identity.length > MAX_IDENTITY_CHARS ? `${identity.slice(0, MAX_IDENTITY_CHARS - 2)}…]` : identity;
}

/** The agents an identity names, when it is a durable-agent worker's (undefined otherwise, or when cut short). */
export function agentsOfIdentity(identity: string): string[] | undefined {
  const match = new RegExp(`${MARK}\\[([^\\]…]*)\\]$`).exec(identity);
  return match ? match[1]!.split(',').filter(Boolean) : undefined;
}

export interface ForeignPoller {
  identity: string;
  agents: string[];
}

/**
 * The other workers polling the task queue (seen by the server within its last few minutes) whose
 * agents differ from these: their runs' steps may reach this worker and this worker's theirs; each
 * worker leaves such a step to another (see activities/served-agent.ts), which costs retries.
 */
export async function foreignPollers(connection: NativeConnection, namespace: string, taskQueue: string, agents: readonly string[], own: string): Promise<ForeignPoller[]> {
  const response = await connection.workflowService.describeTaskQueue({
    namespace,
    taskQueue: { name: taskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
    taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
  });
  const mine = [...agents].sort().join(',');
  const seen = new Map<string, ForeignPoller>();
  for (const poller of response.pollers ?? []) {
    const identity = poller.identity ?? '';
    const theirs = agentsOfIdentity(identity);
    if (identity === own || !theirs || [...theirs].sort().join(',') === mine) continue;
    seen.set(identity, { identity, agents: theirs });
  }
  return [...seen.values()];
}
