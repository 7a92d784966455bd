import { REFERENCED_RESULT_MIN_CHARS, textHash, type ReferencingDelta } from '../../common/contracts/tool-result-references';
import type { Message } from '../../common/messages';

/** The delta with each tool result of REFERENCED_RESULT_MIN_CHARS or more named, not carried; undefined when there is none. */
export function referencingDelta(messages: readonly Message[]): ReferencingDelta | undefined {
  if (!messages.some((m) => m.role === 'tool' && m.content.length >= REFERENCED_RESULT_MIN_CHARS)) return undefined;
  const references: ReferencingDelta['references'] = [];
  const carried = messages.map((message) => {
    if (message.role !== 'tool' || message.content.length < REFERENCED_RESULT_MIN_CHARS) return message;
    references.push({ toolCallId: message.toolCallId, chars: message.content.length, hash: textHash(message.content) });
    return { ...message, content: '' };
  });
  return { messages: carried, references };
}
