import { ApplicationFailure, isCancellation, workflowInfo } from '@temporalio/workflow';
import type { AgentDescriptor } from '../../common/agent';
import type { DescribeAgentOutput } from '../../common/contracts/describe-agent';
import type { WorkerRefusal } from '../../common/definitions';
import { FailureTypes } from '../../common/failures';
import { activities, localActivities } from '../platform';
import { toWorkflowFailure } from './fail-run';
import { announceFailedStart, showRefusal } from '../effects';

/** How long a run waits for a worker of its task queue that serves its agent before it fails. */
export const SERVING_WORKER_TIMEOUT = '15 minutes';

/**
 * The agent as a worker that serves it describes it, recorded for the whole run. The worker that
 * runs this task is asked first (a local activity); when it serves another agents module, the task
 * queue is asked, where only a worker that serves the agent answers; when none does within
 * SERVING_WORKER_TIMEOUT, the run fails saying so.
 */
export async function describeAgent(agent: string, onWaiting: (step: string) => void = () => undefined, userId?: string): Promise<AgentDescriptor> {
  // The run's user, for the worker's budget of that user (see WorkerConfig.userBudgets).
  const user = userId !== undefined ? { userId } : {};
  try {
    const here: DescribeAgentOutput = await localActivities.describeAgent.executeWithOptions(
      { summary: `describe agent ${agent}`, startToCloseTimeout: '30s', retry: { maximumAttempts: 5 } },
      [{ agent, onMissing: 'report', ...user }],
    );
    if (!('notServed' in here)) return here;
    return await describeOnTaskQueue(agent, here.notServed, onWaiting, user);
  } catch (error) {
    if (isCancellation(error)) throw error;
    announceFailedStart(agent);
    throw toWorkflowFailure(error);
  }
}

async function describeOnTaskQueue(agent: string, refusal: WorkerRefusal, onWaiting: (step: string) => void, user: { userId?: string }): Promise<AgentDescriptor> {
  onWaiting(showRefusal(agent, refusal));
  try {
    const described = await activities.describeAgent.executeWithOptions(
      { summary: `describe agent ${agent} (a worker that serves it)`, startToCloseTimeout: '30s', scheduleToCloseTimeout: SERVING_WORKER_TIMEOUT, retry: { maximumInterval: '10s' } },
      [{ agent, onMissing: 'fail', ...user }],
    );
    return described as AgentDescriptor;
  } catch (error) {
    if (isCancellation(error)) throw error;
    throw ApplicationFailure.nonRetryable(
      `No worker of task queue '${workflowInfo().taskQueue}' serves agent '${agent}' (waited ${SERVING_WORKER_TIMEOUT}; worker ${refusal.worker} serves: ${refusal.serves.join(', ') || 'no agent'}).`,
      FailureTypes.noWorkerServes,
    );
  }
}

/** The run's user id, when its runtime context has a string one (the context comes from the starter, unchecked). */
export function userIdOf(runtime: { userId?: unknown } | undefined): string | undefined {
  return typeof runtime?.userId === 'string' ? runtime.userId : undefined;
}
