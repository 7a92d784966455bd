import type { AssistantMessage, Message } from '../../common/messages';

/** Every tool call id the conversation has used so far. */
export function usedCallIds(messages: Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) ids.add(call.id);
  }
  return ids;
}

/**
 * Some servers send no ids (the client then numbers the calls of each reply from `call_0`) or
 * reuse them across replies. Approvals, results and events are keyed by call id, so an id the
 * run has already used, or an empty one, is replaced with a fresh one; the model sees the new
 * id in the conversation from then on.
 */
export function withUniqueCallIds(message: AssistantMessage, taken: Set<string>, iteration: number): AssistantMessage {
  if (!message.toolCalls?.length) return message;
  const seen = new Set(taken);
  let changed = false;
  const toolCalls = message.toolCalls.map((call, index) => {
    if (call.id && !seen.has(call.id)) {
      seen.add(call.id);
      return call;
    }
    changed = true;
    let id = `call_${iteration}_${index}`;
    while (seen.has(id)) id = `${id}_`;
    seen.add(id);
    return { ...call, id };
  });
  return changed ? { ...message, toolCalls } : message;
}
