import { WorkflowIdReusePolicy, type Priority } from '@temporalio/common';
import { conversationWorkflowId, type ConversationInput } from './conversation';
import { AGENT_NAME, AGENT_SESSION_ID, AGENT_STATUS, AGENT_TURNS } from './search-attributes';

/**
 * What starting a conversation asks of Temporal (its id, input, search attributes, summary and
 * priority), whoever starts it: the client's `send`, or a schedule's turn on a worker.
 */
export function conversationStartOptions(input: ConversationInput, priority?: Priority) {
  return {
    workflowId: conversationWorkflowId(input.agent, input.sessionId),
    args: [input] as [ConversationInput],
    // The first message starts it; later ones reach it while it runs; an ended one is not restarted.
    workflowIdConflictPolicy: 'USE_EXISTING' as const,
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    typedSearchAttributes: [
      { key: AGENT_NAME, value: input.agent },
      { key: AGENT_STATUS, value: 'idle' },
      { key: AGENT_SESSION_ID, value: input.sessionId },
      { key: AGENT_TURNS, value: 0 },
    ],
    staticSummary: `${input.agent}: conversation ${input.sessionId}`,
    ...(priority ? { priority } : {}),
  };
}
