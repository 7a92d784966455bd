import type { ScheduleOptions, ScheduleOverlapPolicy } from '@temporalio/client';
import type { Priority } from '@temporalio/common';
import { AGENT_NAME, AGENT_SESSION_ID } from '../../common/search-attributes';
import type { ScheduledTurnInput } from '../../common/scheduled-turn';
import { conversationInputOf } from '../conversation';
import { fairnessPriority } from '../fairness';
import { agentStartRequest } from '../start-request';
import type { CheckedScheduleOptions, ScheduleOverlap } from './schedule-options';

/** Temporal's overlap policy of each of ours. */
export const OVERLAP_POLICIES: Record<ScheduleOverlap, ScheduleOverlapPolicy> = {
  skip: 'SKIP',
  bufferOne: 'BUFFER_ONE',
  bufferAll: 'BUFFER_ALL',
  cancelOther: 'CANCEL_OTHER',
  terminateOther: 'TERMINATE_OTHER',
  allowAll: 'ALLOW_ALL',
};

export function overlapOf(policy: ScheduleOverlapPolicy | undefined): ScheduleOverlap {
  return (Object.entries(OVERLAP_POLICIES).find(([, temporal]) => temporal === policy)?.[0] as ScheduleOverlap | undefined) ?? 'skip';
}

/**
 * The memo of a schedule of agent runs: its cron expressions as given (Temporal describes them
 * back as calendars), and the mark listSchedules also finds by the AgentName search attribute.
 */
export const SCHEDULE_MEMO = 'durableAgentSchedule';

export interface ScheduleMemo {
  agent: string;
  cron?: string[];
  sessionId?: string;
}

/** A fire of a conversation schedule: a scheduledTurnWorkflow that sends the prompt as a turn. */
function turnAction(agent: string, options: CheckedScheduleOptions, sessionId: string) {
  const runtime = { ...(options.runtime ?? {}), ...(options.userId !== undefined ? { userId: options.userId } : {}) };
  const conversation = conversationInputOf(agent, {
    sessionId,
    ...(Object.keys(runtime).length > 0 ? { runtime } : {}),
    ...(options.maxIters !== undefined ? { maxItersPerTurn: options.maxIters } : {}),
    ...(options.budget !== undefined ? { budget: options.budget } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
  });
  const priority: Priority | undefined = fairnessPriority(options.userId, undefined);
  const input: ScheduledTurnInput = { conversation, text: options.prompt, ...(priority ? { priority } : {}) };
  return {
    workflowType: 'scheduledTurnWorkflow',
    args: [input],
    typedSearchAttributes: [
      { key: AGENT_NAME, value: agent },
      { key: AGENT_SESSION_ID, value: sessionId },
    ],
    staticSummary: `${agent}: scheduled turn of conversation ${sessionId}`,
    ...(priority ? { priority } : {}),
  };
}

/** A fire of a run schedule: exactly what AgentClient.start sends (agentStartRequest). */
function runAction(agent: string, options: CheckedScheduleOptions) {
  const { workflowType, args, typedSearchAttributes, staticSummary, priority } = agentStartRequest(agent, {
    prompt: options.prompt,
    id: options.id,
    ...(options.userId !== undefined ? { userId: options.userId } : {}),
    ...(options.runtime !== undefined ? { runtime: options.runtime } : {}),
    ...(options.budget !== undefined ? { budget: options.budget } : {}),
    ...(options.maxIters !== undefined ? { maxIters: options.maxIters } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
  });
  return { workflowType, args, typedSearchAttributes, staticSummary, ...(priority ? { priority } : {}) };
}

/** What client.schedule.create is given for a schedule of `agent` on `taskQueue`. */
export function temporalScheduleOptions(agent: string, options: CheckedScheduleOptions, taskQueue: string): ScheduleOptions {
  const action = options.conversation ? turnAction(agent, options, options.conversation.sessionId) : runAction(agent, options);
  const memo: ScheduleMemo = { agent, ...(options.cron ? { cron: options.cron } : {}), ...(options.conversation ? { sessionId: options.conversation.sessionId } : {}) };
  return {
    scheduleId: options.id,
    spec: options.cron ? { cronExpressions: options.cron } : { intervals: [{ every: options.everyMs! }] },
    // Temporal appends the fire time to the workflow id: each run is `<schedule id>-<fire time>`.
    // (`priority` is sent by the SDK though its option type leaves it out.)
    action: { type: 'startWorkflow', taskQueue, workflowId: options.id, ...action } as ScheduleOptions['action'],
    policies: { overlap: OVERLAP_POLICIES[options.overlap], catchupWindow: options.catchupWindowMs },
    state: { paused: options.paused, ...(options.note !== undefined ? { note: options.note } : {}) },
    memo: { [SCHEDULE_MEMO]: memo },
    typedSearchAttributes: [{ key: AGENT_NAME, value: agent }],
  };
}
