import type { AgentEvent } from '../common/events';
import type { CallAnswer } from '../common/tool-call-record';

/** How a call that no longer waits was answered, as the holder run's events record it (the newest, should a later batch reuse the id). */
export function answerOf(events: AgentEvent[], callId: string): CallAnswer | undefined {
  for (const event of [...events].reverse()) {
    if (event.type === 'permission_decided' && event.callId === callId && event.by !== 'rules') {
      const outcome = event.by === 'timeout' ? 'timed_out' : event.behavior === 'allow' ? 'approved' : 'denied';
      return {
        outcome,
        at: event.at,
        ...(event.answeredBy ? { answeredBy: event.answeredBy } : {}),
        ...(event.by === 'user' ? { reason: event.reason } : {}),
        ...(event.input !== undefined ? { editedInput: event.input } : {}),
      };
    }
    if (event.type === 'external_submitted' && event.callId === callId) return { outcome: 'submitted', at: event.at, ...(event.answeredBy ? { answeredBy: event.answeredBy } : {}) };
  }
  return undefined;
}
