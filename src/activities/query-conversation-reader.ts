import { ApplicationFailure } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { conversationPageQuery, conversationQuery } from '../common/definitions';
import { FailureTypes } from '../common/failures';
import { readConversationPages, type ConversationReader } from '../common/contracts/conversation-reader';

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
    readRange(workflowId, runId, from, to) {
      const handle = client.workflow.getHandle(workflowId, runId);
      return readConversationPages((page) => handle.query(conversationPageQuery, page), from, to, (got) => mismatch(workflowId, got, to));
    },
  };
}
