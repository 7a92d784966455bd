import type { AgentEvent, AgentEventBody } from '../../common/events';
import type { Writing } from '../state';

/** The log keeps the newest events only, so a long run's state stays bounded. */
export const MAX_EVENTS = 500;

export function recordEvent(state: Writing<'progress'>, body: AgentEventBody, at: string): AgentEvent {
  const event = { ...body, seq: state.nextEventSeq, at } as AgentEvent;
  state.nextEventSeq += 1;
  state.events.push(event);
  if (state.events.length > MAX_EVENTS) state.events.splice(0, state.events.length - MAX_EVENTS);
  return event;
}

export function eventsAfter(state: Writing<'progress'>, afterSeq = 0): AgentEvent[] {
  return state.events.filter((event) => event.seq > afterSeq);
}

export function preview(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
