import type { Message } from '../common/messages';
import { tailStart } from './message-tail';

/** What the `state` query carries of the conversation: well under Temporal's 2 MiB answer limit. */
export const STATE_MESSAGES_BYTES = 512 * 1024;

/** The newest messages that fit in STATE_MESSAGES_BYTES, and the conversation's length. */
export function newestMessages(messages: Message[]): { messages: Message[]; messageCount: number } {
  const start = tailStart(messages, STATE_MESSAGES_BYTES);
  return { messages: start === 0 ? messages : messages.slice(start), messageCount: messages.length };
}
