import { jsonByteLength } from '../../common/boundary/limits';
import type { ConversationPageRequest } from '../../common/definitions';
import type { Message } from '../../common/messages';

/** Messages from `from` (below `to`) while they fit in `maxBytes`; always at least one when any is asked for. */
export function conversationPage(messages: Message[], page: ConversationPageRequest): Message[] {
  const to = Math.min(page.to, messages.length);
  const taken: Message[] = [];
  let bytes = 2;
  for (let index = page.from; index < to; index++) {
    const size = jsonByteLength(messages[index]) + 1;
    if (taken.length > 0 && bytes + size > page.maxBytes) break;
    taken.push(messages[index]!);
    bytes += size;
  }
  return taken;
}
