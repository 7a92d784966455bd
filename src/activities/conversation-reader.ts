import { ApplicationFailure } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { conversationQuery } from '../common/definitions';
import { FailureTypes } from '../common/failures';
import type { Message } from '../common/messages';

/** Reads the conversation of the run that scheduled a model call. */
export interface ConversationReader {
  read(workflowId: string, runId: string, messageCount: number): Promise<Message[]>;
}

/** Through the `conversation` query: a read of workflow state that adds nothing to history. */
export function queryConversationReader(client: Client): ConversationReader {
  return {
    async read(workflowId, runId, messageCount) {
      const messages = await client.workflow.getHandle(workflowId, runId).query(conversationQuery, messageCount);
      if (messages.length !== messageCount) {
        throw ApplicationFailure.retryable(
          `The conversation of ${workflowId} has ${messages.length} messages, the model call expects ${messageCount}.`,
          FailureTypes.workflowInternal,
        );
      }
      return messages;
    },
  };
}
