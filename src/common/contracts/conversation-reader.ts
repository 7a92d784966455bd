import type { ConversationPageRequest } from '../definitions';
import type { Message } from '../messages';

/** Half of Temporal's 2 MiB payload limit: room for the answer's envelope and any codec overhead. */
export const CONVERSATION_PAGE_BYTES = 1024 * 1024;

/** Reads the conversation of the run that scheduled a model call (the worker's is queryConversationReader). */
export interface ConversationReader {
  /** The first `messageCount` messages in one query (model calls scheduled before paging existed). */
  read(workflowId: string, runId: string, messageCount: number): Promise<Message[]>;
  /** Messages `from`…`to`, page by page under Temporal's payload limit, however long the conversation. */
  readRange(workflowId: string, runId: string | undefined, from: number, to: number): Promise<Message[]>;
}

/**
 * Messages `from`…`to` through the run's `conversationPage` query, one page under Temporal's
 * payload limit at a time; `short` makes the error for a run that has fewer messages.
 */
export async function readConversationPages(
  queryPage: (page: ConversationPageRequest) => Promise<Message[]>,
  from: number,
  to: number,
  short: (got: number) => Error,
): Promise<Message[]> {
  const messages: Message[] = [];
  while (from + messages.length < to) {
    const page = await queryPage({ from: from + messages.length, to, maxBytes: CONVERSATION_PAGE_BYTES });
    if (page.length === 0) throw short(from + messages.length);
    messages.push(...page);
  }
  return messages;
}
