import { tsToMs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** One (non-local) activity of a history, with the times of its events in ms since the epoch. */
export interface ActivitySpan {
  type: string;
  scheduledEventId: number;
  /** Index of the scheduled event in the history's events. */
  scheduledIndex: number;
  scheduledAt: number;
  startedAt?: number;
  closedAt?: number;
}

export function eventBytes(event: HistoryEvent): number {
  return temporal.api.history.v1.HistoryEvent.encode(event).finish().length;
}

export function historyBytes(history: History): number {
  return temporal.api.history.v1.History.encode(history).finish().length;
}

/** Every activity of the history in the order scheduled; attempts are not told apart (the last one wins). */
export function activitySpans(history: History): ActivitySpan[] {
  const spans = new Map<number, ActivitySpan>();
  (history.events ?? []).forEach((event, index) => {
    const at = tsToMs(event.eventTime);
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) {
      const id = Number(event.eventId);
      spans.set(id, { type: scheduled.activityType?.name ?? '', scheduledEventId: id, scheduledIndex: index, scheduledAt: at });
      return;
    }
    const started = event.activityTaskStartedEventAttributes;
    if (started) {
      const span = spans.get(Number(started.scheduledEventId));
      if (span) span.startedAt = at;
      return;
    }
    const closed =
      event.activityTaskCompletedEventAttributes ??
      event.activityTaskFailedEventAttributes ??
      event.activityTaskTimedOutEventAttributes ??
      event.activityTaskCanceledEventAttributes;
    const span = closed ? spans.get(Number(closed.scheduledEventId)) : undefined;
    if (span) span.closedAt = at;
  });
  return [...spans.values()];
}
