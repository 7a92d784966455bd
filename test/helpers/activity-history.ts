import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const LOCAL_ACTIVITY_MARKER = 'core_local_activity';

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

/** The events of every (non-local) activity of one type (e.g. 'executeTool'), in history order. */
export function activityEvents(history: History, activityType: string): ActivityEvent[] {
  const events = history.events ?? [];
  const types = scheduledTypes(events);
  return events.flatMap((event) => {
    const parsed = toActivityEvent(event);
    return parsed && types.get(parsed.scheduledEventId) === activityType ? [parsed] : [];
  });
}

/** A local activity's result, recorded as a marker, when it is of this type. */
function localActivityResult(event: HistoryEvent, activityType: string): { result: unknown } | undefined {
  const marker = event.markerRecordedEventAttributes;
  if (marker?.markerName !== LOCAL_ACTIVITY_MARKER) return undefined;
  const data = marker.details?.data?.payloads?.[0];
  const result = marker.details?.result?.payloads?.[0];
  if (!data || !result) return undefined;
  const info = defaultPayloadConverter.fromPayload<{ activity_type?: string }>(data);
  return info.activity_type === activityType ? { result: defaultPayloadConverter.fromPayload(result) } : undefined;
}

/** The results of the completed activities of one type, local ones included, in history order. */
export function activityResults<T>(history: History, activityType: string): T[] {
  const events = history.events ?? [];
  const types = scheduledTypes(events);
  return events.flatMap((event) => {
    const local = localActivityResult(event, activityType);
    if (local) return [local.result as T];
    const parsed = toActivityEvent(event);
    return parsed?.kind === 'completed' && types.get(parsed.scheduledEventId) === activityType ? [parsed.result as T] : [];
  });
}

/** The first argument of each scheduled (non-local) activity of one type, in history order. */
export function activityInputs<T>(history: History, activityType: string): T[] {
  return (history.events ?? []).flatMap((event) => {
    const scheduled = event.activityTaskScheduledEventAttributes;
    const payload = scheduled?.input?.payloads?.[0];
    return scheduled?.activityType?.name === activityType && payload ? [defaultPayloadConverter.fromPayload<T>(payload)] : [];
  });
}
