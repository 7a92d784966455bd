import type { Message } from '../../common/messages';
import { tailStart } from './message-tail';

/** The most a model call carries of the conversation itself; older messages the worker has or reads. */
export const MAX_DELTA_BYTES = 256 * 1024;

/**
 * Where the messages a model call carries start: after those the previous call carried, or later
 * when they would pass MAX_DELTA_BYTES (the first call of a long conversation continued as new),
 * so each scheduled call stays small whatever the conversation's length. The last message is
 * always carried.
 */
export function deltaStart(messages: Message[], alreadySent: number): number {
  return tailStart(messages, MAX_DELTA_BYTES, Math.min(alreadySent, messages.length - 1));
}
