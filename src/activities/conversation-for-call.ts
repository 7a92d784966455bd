import type { Message } from '../common/messages';
import type { CallModelRequest } from '../common/contracts/model-call';
import { jsonChars } from '../common/messages';
import type { CachedConversation, ConversationCache } from './conversation-cache';
import type { ConversationReader } from '../common/contracts/conversation-reader';
import { textHash, type ReferencingDelta } from '../common/contracts/tool-result-references';
import type { ToolResultCache } from './tool-result-cache';

/**
 * The messages a model call is for: the worker's cached prefix (or the run's paged query on a miss)
 * joined with the messages the call carries (their named tool results put back). Calls scheduled before the cache existed carry no
 * messages and read the whole conversation through the query.
 */
export async function conversationForCall(
  request: CallModelRequest['conversation'],
  run: { workflowId: string; runId: string },
  cache: ConversationCache,
  reader: ConversationReader,
  toolResults: ToolResultCache,
): Promise<Message[]> {
  if ((request.messages === undefined && request.referencing === undefined) || request.from === undefined || request.id === undefined) {
    return reader.read(run.workflowId, run.runId, request.messageCount);
  }
  const key = cacheKey(run, request.id);
  const prefix = await conversationPrefix(request.id, request.from, run, cache, reader);
  const delta = request.messages ?? (await resolvedDelta(request.referencing!, request.from, request.messageCount, run, toolResults, reader));
  const messages = [...prefix.messages, ...delta];
  if (messages.length !== request.messageCount) {
    throw new Error(`The model call expects ${request.messageCount} messages but was given ${messages.length}.`);
  }
  cache.store(key, { messages, chars: prefix.chars + jsonChars(delta) });
  return messages;
}

/** The delta with each named tool result put back: from this worker's tool results, or all of it through the run's query when one is missing or differs. */
async function resolvedDelta(
  referencing: ReferencingDelta,
  from: number,
  messageCount: number,
  run: { workflowId: string; runId: string },
  toolResults: ToolResultCache,
  reader: ConversationReader,
): Promise<Message[]> {
  const named = new Map<string, string>();
  for (const reference of referencing.references) {
    const text = toolResults.recall(run.workflowId, reference.toolCallId);
    if (text === undefined || text.length !== reference.chars || textHash(text) !== reference.hash) {
      return reader.readRange(run.workflowId, run.runId, from, messageCount);
    }
    named.set(reference.toolCallId, text);
  }
  return referencing.messages.map((message) => (message.role === 'tool' && named.has(message.toolCallId) ? { ...message, content: named.get(message.toolCallId)! } : message));
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
