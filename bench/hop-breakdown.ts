import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { median } from './stats';

const EventType = temporal.api.enums.v1.EventType;

/** Where one run's time went, in ms, from its history's event times. */
export interface Hops {
  /** Start request recorded → first workflow task handed to a worker, and every later task: scheduled → started. */
  workflowTaskDispatch: number;
  /** Workflow task started → completed: the worker running the workflow code (local activities included). */
  workflowTaskRun: number;
  /** Activity scheduled → started (0 when dispatched eagerly with the workflow task's reply). */
  activityDispatch: number;
  /** Activity started → completed: the activity itself and its report. */
  activityRun: number;
  /** Completion of the run's last event → the client seeing the result is not in history; the rest is here. */
  other: number;
  workflowTasks: number;
  activities: number;
  localActivities: number;
}

const millis = (event: temporal.api.history.v1.IHistoryEvent) => Number(event.eventTime!.seconds) * 1000 + (event.eventTime!.nanos ?? 0) / 1e6;

function hopsOf(events: temporal.api.history.v1.IHistoryEvent[]): Hops {
  const hops: Hops = { workflowTaskDispatch: 0, workflowTaskRun: 0, activityDispatch: 0, activityRun: 0, other: 0, workflowTasks: 0, activities: 0, localActivities: 0 };
  const at = new Map<number, number>();
  for (const event of events) at.set(Number(event.eventId), millis(event));
  for (const event of events) {
    const t = millis(event);
    const since = (id: unknown) => t - (at.get(Number(id)) ?? t);
    switch (event.eventType) {
      case EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED:
        hops.workflowTaskDispatch += since(event.workflowTaskStartedEventAttributes!.scheduledEventId);
        hops.workflowTasks += 1;
        break;
      case EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
        hops.workflowTaskRun += since(event.workflowTaskCompletedEventAttributes!.startedEventId);
        break;
      case EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
        hops.activityDispatch += since(event.activityTaskStartedEventAttributes!.scheduledEventId);
        hops.activities += 1;
        break;
      case EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
        hops.activityRun += since(event.activityTaskCompletedEventAttributes!.startedEventId);
        break;
      case EventType.EVENT_TYPE_MARKER_RECORDED:
        if (event.markerRecordedEventAttributes?.markerName === 'core_local_activity') hops.localActivities += 1;
        break;
    }
  }
  const span = events.length ? millis(events[events.length - 1]!) - millis(events[0]!) : 0;
  hops.other = span - hops.workflowTaskDispatch - hops.workflowTaskRun - hops.activityDispatch - hops.activityRun;
  return hops;
}

/** The median of each hop over the runs, read from their histories. */
export async function medianHops(client: Client, workflowIds: string[]): Promise<Hops> {
  const all = await Promise.all(workflowIds.map(async (id) => hopsOf((await client.workflow.getHandle(id).fetchHistory()).events ?? [])));
  const keys = Object.keys(all[0]!) as (keyof Hops)[];
  return Object.fromEntries(keys.map((key) => [key, median(all.map((hops) => hops[key]))])) as unknown as Hops;
}

export function describeHops(label: string, hops: Hops): string {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return (
    `${label}: ${hops.workflowTasks} workflow tasks (dispatch ${ms(hops.workflowTaskDispatch)}, run ${ms(hops.workflowTaskRun)}), ` +
    `${hops.activities} activities (dispatch ${ms(hops.activityDispatch)}, run ${ms(hops.activityRun)}), ${hops.localActivities} local activities; ` +
    `between tasks ${ms(hops.other)}`
  );
}

/**
 * The agent run's hops (its workflow tasks and activities) each at the floor's median cost per hop:
 * what an iteration would cost if the agent added nothing but its extra hops.
 */
export function atFloorCostPerHop(floor: Hops, agent: Hops): number {
  const perTask = (floor.workflowTaskDispatch + floor.workflowTaskRun) / floor.workflowTasks;
  const perActivity = (floor.activityDispatch + floor.activityRun) / floor.activities;
  return agent.workflowTasks * perTask + agent.activities * perActivity + floor.other;
}
