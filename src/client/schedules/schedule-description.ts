import type { ScheduleDescription } from '@temporalio/client';
import type { Budget } from '../../common/budget';
import type { ScheduledTurnInput } from '../../common/scheduled-turn';
import { conversationWorkflowId } from '../../common/conversation';
import type { AgentStartInput } from '../start-request';
import { overlapOf, SCHEDULE_MEMO, type ScheduleMemo } from './schedule-action';
import type { ScheduleOverlap } from './schedule-options';

/** A run a schedule started: its workflow id, the fire time it was for and when it was started. */
export interface ScheduledRun {
  workflowId: string;
  runId: string;
  scheduledAt: Date;
  startedAt: Date;
}

/** A schedule of agent runs as Temporal keeps it, its action read back. */
export interface AgentScheduleDescription {
  id: string;
  agent: string;
  prompt: string;
  budget?: Budget;
  maxIters?: number;
  model?: string;
  userId?: string;
  /** Conversation schedules: the session and the conversation's workflow id. */
  conversation?: { sessionId: string; workflowId: string };
  /** When it fires: the cron expressions as given, or the interval in ms. */
  spec: { cron?: string[]; everyMs?: number };
  overlap: ScheduleOverlap;
  catchupWindowMs: number;
  paused: boolean;
  note?: string;
  /** The next fire times (a paused schedule has them too: they are skipped while it stays paused). */
  nextFireTimes: Date[];
  /** The most recent runs it started (triggers and backfills included), oldest first. */
  recentRuns: ScheduledRun[];
  /** Runs of it that are still going. */
  runningWorkflowIds: string[];
  firesTaken: number;
  createdAt: Date;
}

function memoOf(description: ScheduleDescription): ScheduleMemo | undefined {
  const memo = description.memo?.[SCHEDULE_MEMO];
  return memo && typeof memo === 'object' ? (memo as ScheduleMemo) : undefined;
}

/** What the action starts, read from its input (a run's start input, or a scheduled turn's). */
function actionFields(description: ScheduleDescription): Pick<AgentScheduleDescription, 'agent' | 'prompt' | 'budget' | 'maxIters' | 'model' | 'userId' | 'conversation'> {
  const { action } = description;
  const input = action.args?.[0];
  if (action.workflowType === 'scheduledTurnWorkflow') {
    const { conversation, text } = input as ScheduledTurnInput;
    return {
      agent: conversation.agent,
      prompt: text,
      ...(conversation.budget !== undefined ? { budget: conversation.budget } : {}),
      ...(conversation.maxItersPerTurn !== undefined ? { maxIters: conversation.maxItersPerTurn } : {}),
      ...(conversation.model !== undefined ? { model: conversation.model } : {}),
      ...(conversation.runtime?.userId !== undefined ? { userId: conversation.runtime.userId } : {}),
      conversation: { sessionId: conversation.sessionId, workflowId: conversationWorkflowId(conversation.agent, conversation.sessionId) },
    };
  }
  const start = input as AgentStartInput;
  return {
    agent: start.agent,
    prompt: start.prompt,
    ...(start.options.budget !== undefined ? { budget: start.options.budget } : {}),
    ...(start.options.maxIters !== undefined ? { maxIters: start.options.maxIters } : {}),
    ...(start.options.model !== undefined ? { model: start.options.model } : {}),
    ...(start.runtime.userId !== undefined ? { userId: start.runtime.userId } : {}),
  };
}

export function agentScheduleDescription(description: ScheduleDescription): AgentScheduleDescription {
  const memo = memoOf(description);
  const every = description.spec.intervals?.[0]?.every;
  const runOf = (result: ScheduleDescription['info']['recentActions'][number]): ScheduledRun => ({
    workflowId: result.action.workflow.workflowId,
    runId: result.action.workflow.firstExecutionRunId,
    scheduledAt: result.scheduledAt,
    startedAt: result.takenAt,
  });
  return {
    id: description.scheduleId,
    ...actionFields(description),
    spec: memo?.cron ? { cron: memo.cron } : every !== undefined ? { everyMs: Number(every) } : {},
    overlap: overlapOf(description.policies.overlap),
    catchupWindowMs: Number(description.policies.catchupWindow),
    paused: description.state.paused,
    ...(description.state.note ? { note: description.state.note } : {}),
    nextFireTimes: description.info.nextActionTimes,
    recentRuns: description.info.recentActions.map(runOf),
    runningWorkflowIds: description.info.runningActions.map((action) => action.workflow.workflowId),
    firesTaken: description.info.numActionsTaken,
    createdAt: description.info.createdAt,
  };
}
