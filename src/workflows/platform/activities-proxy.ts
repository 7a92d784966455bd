import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { AgentActivities } from '../../activities/create-activities';

/**
 * Typed activity stubs; every call site passes its own options through `executeWithOptions`, which
 * deep-merges them into these. So the defaults name no `maximumAttempts`: a call site that sets
 * none (a step whose own attempts the activity counts, see step-schedule.ts) gets no cap.
 */
export const activities = proxyActivities<AgentActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' },
});

/**
 * Quick worker-side decisions (describing the agent, checking calls) run as local activities:
 * recorded in history like any activity, but without a round trip through the task queue.
 */
export const localActivities = proxyLocalActivities<AgentActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' },
});

/**
 * A conversation schedule's turn: the activity waits for the turn's answer, which may wait for a
 * person for days; its heartbeats tell a lost worker from a long turn, and a retry reaches the same turn.
 */
export const scheduledTurnActivities = proxyActivities<Pick<AgentActivities, 'sendScheduledTurn'>>({
  startToCloseTimeout: '30 days',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1 minute' },
});
