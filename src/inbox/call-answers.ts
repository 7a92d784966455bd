import type { AgentEvent } from '../common/events';

/** How a call that no longer waits was answered, as the holder run's events record it. */
export interface CallAnswer {
  what: 'approved' | 'denied' | 'submitted' | 'timed out';
  by?: string;
  at: string;
}

/** The answer of `callId` in these events (the newest, should a later batch reuse the id), or undefined. */
export function answerOf(events: AgentEvent[], callId: string): CallAnswer | undefined {
  for (const event of [...events].reverse()) {
    if (event.type === 'permission_decided' && event.callId === callId && event.by !== 'rules') {
      const what = event.by === 'timeout' ? 'timed out' : event.behavior === 'allow' ? 'approved' : 'denied';
      return { what, at: event.at, ...(event.answeredBy ? { by: event.answeredBy } : {}) };
    }
    if (event.type === 'external_submitted' && event.callId === callId) return { what: 'submitted', at: event.at, ...(event.answeredBy ? { by: event.answeredBy } : {}) };
  }
  return undefined;
}
