import { ApplicationFailure } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { conversationPageQuery, conversationQuery } from '../common/definitions';
import { FailureTypes } from '../common/failures';
import type { Message } from '../common/messages';

/** Half of Temporal's 2 MiB payload limit: room for the answer's envelope and any codec overhead. */
export const CONVERSATION_PAGE_BYTES = 1024 * 1024;

/** Reads the conversation of the run that scheduled a model call. */
export interface ConversationReader {
  /** The first `messageCount` messages in one query (model calls scheduled before paging existed). */
  read(workflowId: string, runId: string, messageCount: number): Promise<Message[]>;
  /** Messages `from`…`to`, page by page under Temporal's payload limit, however long the conversation. */
  readRange(workflowId: string, runId: string | undefined, from: number, to: number): Promise<Message[]>;
}

function mismatch(workflowId: string, got: number, expected: number): ApplicationFailure {
  return ApplicationFailure.retryable(
    `The conversation of ${workflowId} has ${got} messages, the model call expects ${expected}.`,
    FailureTypes.workflowInternal,
  );
}

/** Through the run's queries: reads of workflow state that add nothing to history. */
export function queryConversationReader(client: Pick<Client, 'workflow'>): ConversationReader {
  return {
    async read(workflowId, runId, messageCount) {
      const messages = await client.workflow.getHandle(workflowId, runId).query(conversationQuery, messageCount);
      if (messages.length !== messageCount) throw mismatch(workflowId, messages.length, messageCount);
      return messages;
    },
    async readRange(workflowId, runId, from, to) {
      const handle = client.workflow.getHandle(workflowId, runId);
      const messages: Message[] = [];
      while (from + messages.length < to) {
        const page = await handle.query(conversationPageQuery, { from: from + messages.length, to, maxBytes: CONVERSATION_PAGE_BYTES });
        if (page.length === 0) throw mismatch(workflowId, from + messages.length, to);
        messages.push(...page);
      }
      return messages;
    },
  };
}
