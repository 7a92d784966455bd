import { Context } from '@temporalio/activity';
import { WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure, type Priority } from '@temporalio/common';
import { sendMessageUpdate, type ConversationInput } from '../common/conversation';
import { conversationStartOptions } from '../common/conversation-start';
import { scheduledTurnRequestSchema, type ScheduledTurnRequest, type ScheduledTurnResult } from '../common/scheduled-turn';

const HEARTBEAT_MS = 10_000;

function refused(message: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(message, 'ScheduledTurnRefused');
}

/**
 * A conversation schedule's fire: sends the schedule's prompt as a turn of its conversation
 * (update-with-start, as Conversation.send does: the first fire starts the conversation) and waits
 * for the turn's answer, heartbeating meanwhile. The update id names the fire's run, so a retried
 * attempt reaches the same turn instead of sending the message twice.
 */
export function sendScheduledTurnActivity(client: Pick<Client, 'workflow'>) {
  return async (request: ScheduledTurnRequest): Promise<ScheduledTurnResult> => {
    const parsed = scheduledTurnRequestSchema.safeParse(request);
    if (!parsed.success) throw refused(`The schedule's turn is malformed: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}.`);
    const conversation = request.conversation as ConversationInput;
    const { taskQueue } = Context.current().info;
    const options = conversationStartOptions(conversation, request.priority as Priority | undefined);
    const heartbeat = setInterval(() => Context.current().heartbeat(), HEARTBEAT_MS);
    try {
      const turn = await client.workflow.executeUpdateWithStart(sendMessageUpdate, {
        args: [{ text: request.text }],
        updateId: request.updateId,
        startWorkflowOperation: new WithStartWorkflowOperation('conversationWorkflow', { taskQueue, ...options }),
      });
      return { conversationWorkflowId: options.workflowId, turn };
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError || (error instanceof WorkflowUpdateFailedError && /has ended/.test(error.cause?.message ?? ''))) {
        throw refused(`The conversation ${options.workflowId} has ended and takes no more messages; give the schedule another sessionId.`);
      }
      throw error;
    } finally {
      clearInterval(heartbeat);
    }
  };
}
