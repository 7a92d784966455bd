import { jsonByteLength } from '../common/boundary/limits';
import type { Message } from '../common/messages';

/** The most a model call carries of the conversation itself; older messages the worker has or reads. */
export const MAX_DELTA_BYTES = 256 * 1024;

/**
 * Where the messages a model call carries start: after those the previous call carried, or later
 * when they would pass MAX_DELTA_BYTES (the first call of a long conversation continued as new),
 * so each scheduled call stays small whatever the conversation's length. The last message is
 * always carried.
 */
export function deltaStart(messages: Message[], alreadySent: number): number {
  let start = messages.length;
  let bytes = 0;
  while (start > Math.min(alreadySent, messages.length - 1) && start > 0) {
    const size = jsonByteLength(messages[start - 1]);
    if (start < messages.length && bytes + size > MAX_DELTA_BYTES) break;
    bytes += size;
    start -= 1;
  }
  return start;
}
