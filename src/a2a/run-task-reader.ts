import { TaskState, type Message, type Task } from '@a2a-js/sdk';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { WorkflowNotFoundError } from '@temporalio/client';
import { z } from 'zod';
import type { AgentClient } from '../client/agent-client';
import { describeRunFailure } from '../client/run-failure';
import type { Message as RunMessage } from '../common/messages';
import type { AgentRunState } from '../common/run';
import { agentMessage, answerArtifact, dataPart, statusOf, textPart, userMessage } from './a2a-parts';
import { taskIdParts, type TaskIdParts } from './task-ids';
import { waitingText } from './waiting-answer';

/** The part of Temporal's description that says a cancellation was requested while the run still runs (as the MCP server reads it). */
const extendedInfo = z.object({ workflowExtendedInfo: z.object({ cancelRequested: z.boolean().nullish() }).nullish() });

/** The conversation as A2A history: the user's messages and the agent's replies with text (tool traffic stays in the run). */
function historyOf(ids: { taskId: string; contextId: string }, messages: readonly RunMessage[]): Message[] {
  const history: Message[] = [];
  messages.forEach((message, index) => {
    const messageId = `${ids.taskId}#${index}`;
    if (message.role === 'user') history.push(userMessage(ids, message.content, messageId));
    else if (message.role === 'assistant' && message.content) history.push(agentMessage(ids, [textPart(message.content)], messageId));
  });
  return history;
}

/** What a task in `input-required` carries: the calls as text, and as data a client can read. */
export function waitingStatusMessage(ids: { taskId: string; contextId: string }, state: Pick<AgentRunState, 'pending'>): Message {
  const pending = state.pending.map((call) => ({ callId: call.callId, kind: call.kind, tool: call.tool, input: call.input, ...(call.decision?.reason ? { reason: call.decision.reason } : {}) }));
  return agentMessage(ids, [textPart(waitingText(state.pending)), dataPart({ waiting: pending })]);
}

/**
 * The A2A task store of this server, read from Temporal and nothing else: a task is a run (its id
 * the workflow id), its status the run's, its history the run's conversation, its artifact the
 * run's answer. A task this server did not start, or one of another agent, is not found.
 */
export class RunTaskReader {
  constructor(private readonly client: AgentClient) {}

  /** The task's id parts when it is one of this agent's; TaskNotFoundError otherwise. */
  idsOf(taskId: string, agent: string): TaskIdParts & { taskId: string } {
    const parts = taskIdParts(taskId);
    if (!parts || parts.agent !== agent) throw new TaskNotFoundError(`Task not found: ${taskId} is not a task of the agent '${agent}'`);
    return { ...parts, taskId };
  }

  async read(taskId: string, agent: string): Promise<Task> {
    const ids = this.idsOf(taskId, agent);
    const run = this.client.get(taskId);
    let description;
    try {
      description = await run.execution();
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) throw new TaskNotFoundError(`Task not found: ${taskId}`);
      throw error;
    }
    const task = (state: Task['status'], history: Message[] = [], artifacts: Task['artifacts'] = []): Task => ({
      id: taskId,
      contextId: ids.contextId,
      status: state,
      artifacts,
      history,
      metadata: { runStatus: description.status, webUi: this.client.link(taskId) },
    });
    const closed = description.closeTime ?? new Date();
    const cancelRequested = extendedInfo.safeParse(description.raw).data?.workflowExtendedInfo?.cancelRequested === true;
    switch (description.status) {
      case 'RUNNING': {
        // A run no worker answers for just now is still working; its task says so without details.
        const state = await run.state().catch(() => undefined);
        const history = state ? historyOf(ids, state.messages) : [];
        if (cancelRequested) return task(statusOf(TaskState.TASK_STATE_CANCELED, agentMessage(ids, [textPart('Cancellation requested; the run is stopping.')])), history);
        if (state && state.pending.length > 0) return task(statusOf(TaskState.TASK_STATE_INPUT_REQUIRED, waitingStatusMessage(ids, state)), history);
        return task(statusOf(TaskState.TASK_STATE_WORKING, state ? agentMessage(ids, [textPart(state.currentStep)]) : undefined), history);
      }
      case 'COMPLETED': {
        const result = await run.result();
        const answer = agentMessage(ids, [textPart(result.output)], `${taskId}#answer`);
        return task(statusOf(TaskState.TASK_STATE_COMPLETED, answer, closed), historyOf(ids, result.messages), [answerArtifact(result.output, result.data)]);
      }
      case 'CANCELLED':
        return task(statusOf(TaskState.TASK_STATE_CANCELED, agentMessage(ids, [textPart(`Run ${taskId} was cancelled.`)]), closed));
      default: {
        const why = await run.result().then(
          () => `the run ended ${description.status.toLowerCase()}`,
          (error: unknown) => describeRunFailure(taskId, error),
        );
        return task(statusOf(TaskState.TASK_STATE_FAILED, agentMessage(ids, [textPart(why)]), closed));
      }
    }
  }
}
