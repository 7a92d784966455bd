import { TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import type { AgentRun } from '../client/agent-run';
import { formatEvent, formatSubAgentEvent } from '../text/format-event';
import { agentMessage, draftArtifact, statusOf, textPart, TERMINAL_STATES } from './a2a-parts';
import type { RunTaskReader } from './run-task-reader';

/** Whether a task stream ends at this state: the task ended, or waits for the client's next message. */
export function streamEndsAt(state: TaskState | undefined): boolean {
  return state !== undefined && (TERMINAL_STATES.has(state) || state === TaskState.TASK_STATE_INPUT_REQUIRED);
}

/** The seq of a run's last event so far (0 before any): a stream that starts here gives only what comes next. */
export async function lastEventSeq(run: AgentRun): Promise<number> {
  const events = await run.eventsAfter(0);
  return events.length > 0 ? events[events.length - 1]!.seq : 0;
}

const statusUpdate = (task: Pick<Task, 'id' | 'contextId'>, status: Task['status']): StreamResponse => ({
  payload: { $case: 'statusUpdate', value: { taskId: task.id, contextId: task.contextId, status, metadata: undefined } },
});

/**
 * A task as an A2A stream, read from the run's own stream (`run.stream()`): the task as it stands
 * first, then a `working` status update per event of the run and its sub-agents (the line `watch`
 * prints), the text the run's model writes as it writes it (an artifact per model call, appended
 * to chunk by chunk; a retried call's starts again), and at the end the answer as an artifact
 * update and the final status. The stream ends
 * when the task does or when it waits for the client (`input-required`): the client's next message
 * answers the wait and streams on. Everything is read from Temporal: a stream cut off and taken up
 * again (`SubscribeToTask`) by another server process goes on the same way.
 */
export async function* taskEvents(options: { run: AgentRun; agent: string; reader: RunTaskReader; afterSeq: number; signal: AbortSignal }): AsyncGenerator<StreamResponse> {
  const { run, agent, reader, signal } = options;
  const first = await reader.read(run.workflowId, agent);
  yield { payload: { $case: 'task', value: first } };
  if (streamEndsAt(first.status?.state)) return;
  const ids = { taskId: first.id, contextId: first.contextId };
  const drafts = new Set<number>();
  for await (const item of run.stream({ afterSeq: options.afterSeq, signal })) {
    if (item.type === 'model_call_restarted' && item.depth === 0) drafts.delete(item.iteration);
    if (item.type === 'text_delta' && item.depth === 0) {
      const append = drafts.has(item.iteration);
      drafts.add(item.iteration);
      yield { payload: { $case: 'artifactUpdate', value: { ...ids, artifact: draftArtifact(item.iteration, item.text), append, lastChunk: false, metadata: undefined } } };
      continue;
    }
    if (item.type !== 'event') continue;
    const { event } = item;
    const ends = item.depth === 0 && (event.type === 'run_finished' || event.type === 'conversation_ended');
    if (ends) break;
    const line = item.depth > 0 ? formatSubAgentEvent(item) : formatEvent(event, run.workflowId);
    if (event.type === 'permission_requested' || event.type === 'external_requested') {
      const now = await reader.read(run.workflowId, agent);
      if (now.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) {
        yield statusUpdate(now, now.status);
        return;
      }
    }
    yield statusUpdate(first, statusOf(TaskState.TASK_STATE_WORKING, agentMessage(ids, [textPart(line)])));
  }
  if (signal.aborted) return;
  // The run's last event comes just before its workflow closes: the task is read once it has.
  await run.result().catch(() => undefined);
  const last = await reader.read(run.workflowId, agent);
  for (const artifact of last.artifacts) {
    yield { payload: { $case: 'artifactUpdate', value: { taskId: last.id, contextId: last.contextId, artifact, append: false, lastChunk: true, metadata: undefined } } };
  }
  yield statusUpdate(last, last.status);
}
