import { jsonByteLength } from '../common/boundary/limits';
import type { Message } from '../common/messages';

/** What the `state` query carries of the conversation: well under Temporal's 2 MiB answer limit. */
export const STATE_MESSAGES_BYTES = 512 * 1024;

/** The newest messages that fit in STATE_MESSAGES_BYTES, and the conversation's length. */
export function newestMessages(messages: Message[]): { messages: Message[]; messageCount: number } {
  let start = messages.length;
  let bytes = 0;
  while (start > 0) {
    const size = jsonByteLength(messages[start - 1]);
    if (bytes + size > STATE_MESSAGES_BYTES && start < messages.length) break;
    bytes += size;
    start -= 1;
  }
  return { messages: start === 0 ? messages : messages.slice(start), messageCount: messages.length };
}
