import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

export interface ActivityEvent {
  kind: 'scheduled' | 'started' | 'completed' | 'failed' | 'timed_out';
  scheduledEventId: number;
  /** Started events: the attempt, and the failure of the attempt before it. */
  attempt?: number;
  lastFailure?: { message: string; type?: string };
  /** Completed events: the decoded result. */
  result?: unknown;
}

function scheduledTypes(events: HistoryEvent[]): Map<number, string> {
  const types = new Map<number, string>();
  for (const event of events) {
    const name = event.activityTaskScheduledEventAttributes?.activityType?.name;
    if (name) types.set(Number(event.eventId), name);
  }
  return types;
}

function toActivityEvent(event: HistoryEvent): ActivityEvent | undefined {
  if (event.activityTaskScheduledEventAttributes) return { kind: 'scheduled', scheduledEventId: Number(event.eventId) };
  const started = event.activityTaskStartedEventAttributes;
  if (started) {
    const failure = started.lastFailure;
    return {
      kind: 'started',
      scheduledEventId: Number(started.scheduledEventId),
      attempt: started.attempt ?? 1,
      ...(failure ? { lastFailure: { message: failure.message ?? '', type: failure.applicationFailureInfo?.type ?? undefined } } : {}),
    };
  }
  const completed = event.activityTaskCompletedEventAttributes;
  if (completed) {
    const payload = completed.result?.payloads?.[0];
    return {
      kind: 'completed',
      scheduledEventId: Number(completed.scheduledEventId),
      ...(payload ? { result: defaultPayloadConverter.fromPayload(payload) } : {}),
    };
  }
  if (event.activityTaskFailedEventAttributes) {
    return { kind: 'failed', scheduledEventId: Number(event.activityTaskFailedEventAttributes.scheduledEventId) };
  }
  if (event.activityTaskTimedOutEventAttributes) {
    return { kind: 'timed_out', scheduledEventId: Number(event.activityTaskTimedOutEventAttributes.scheduledEventId) };
  }
  return undefined;
}

/** The events of every activity of one type (e.g. 'executeTool'), in history order. */
export function activityEvents(history: History, activityType: string): ActivityEvent[] {
  const events = history.events ?? [];
  const types = scheduledTypes(events);
  return events.flatMap((event) => {
    const parsed = toActivityEvent(event);
    return parsed && types.get(parsed.scheduledEventId) === activityType ? [parsed] : [];
  });
}

/** The results of the completed activities of one type, in history order. */
export function activityResults<T>(history: History, activityType: string): T[] {
  return activityEvents(history, activityType)
    .filter((event) => event.kind === 'completed')
    .map((event) => event.result as T);
}
