import type { Message } from '../../common/messages';
import { tailStart } from './message-tail';

/** What the `state` query carries of the conversation: well under Temporal's 2 MiB answer limit. */
export const STATE_MESSAGES_BYTES = 512 * 1024;

/** What a run's result carries of the conversation: half of Temporal's 2 MiB result limit. */
export const RESULT_MESSAGES_BYTES = 1024 * 1024;

/** The newest messages that fit in `budget` bytes of JSON, and the conversation's length. */
export function newestMessages(messages: Message[], budget = STATE_MESSAGES_BYTES): { messages: Message[]; messageCount: number } {
  const start = tailStart(messages, budget);
  return { messages: start === 0 ? messages : messages.slice(start), messageCount: messages.length };
}
