import type { Message } from '../common/messages';
import type { CallModelRequest } from '../common/contracts/model-call';
import { jsonChars } from '../common/messages';
import type { CachedConversation, ConversationCache } from './conversation-cache';
import type { ConversationReader } from '../common/contracts/conversation-reader';

/**
 * The messages a model call is for: the worker's cached prefix (or the run's paged query on a miss)
 * joined with the messages the call carries. Calls scheduled before the cache existed carry no
 * messages and read the whole conversation through the query.
 */
export async function conversationForCall(
  request: CallModelRequest['conversation'],
  run: { workflowId: string; runId: string },
  cache: ConversationCache,
  reader: ConversationReader,
): Promise<Message[]> {
  if (request.messages === undefined || request.from === undefined || request.id === undefined) {
    return reader.read(run.workflowId, run.runId, request.messageCount);
  }
  const key = cacheKey(run, request.id);
  const prefix = await conversationPrefix(request.id, request.from, run, cache, reader);
  const messages = [...prefix.messages, ...request.messages];
  if (messages.length !== request.messageCount) {
    throw new Error(`The model call expects ${request.messageCount} messages but was given ${messages.length}.`);
  }
  cache.store(key, { messages, chars: prefix.chars + jsonChars(request.messages) });
  return messages;
}

const cacheKey = (run: { workflowId: string }, id: string) => `${run.workflowId}/${id}`;

/** The conversation's first `count` messages: from the worker's cache, else through the run's paged query. Stores nothing. */
export async function conversationPrefix(
  id: string,
  count: number,
  run: { workflowId: string; runId: string },
  cache: ConversationCache,
  reader: ConversationReader,
): Promise<CachedConversation> {
  const cached = cache.prefix(cacheKey(run, id), count);
  if (cached) return cached;
  const messages = count === 0 ? [] : await reader.readRange(run.workflowId, run.runId, 0, count);
  return { messages, chars: jsonChars(messages) };
}
