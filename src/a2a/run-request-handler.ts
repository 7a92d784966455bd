import { TaskState, type AgentCard, type Message, type SendMessageRequest, type StreamResponse, type Task } from '@a2a-js/sdk';
import { PushNotificationNotSupportedError, RequestMalformedError, TaskNotCancelableError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import type { AgentClient } from '../client/agent-client';
import type { AgentRun } from '../client/agent-run';
import { ForkRefusedError } from '../client/fork/fork-point';
import { RunRequestRejectedError } from '../client/request-rejected';
import { StartInputTooLargeError } from '../client/start-input-size';
import { textOfParts, TERMINAL_STATES } from './a2a-parts';
import type { RunTaskReader } from './run-task-reader';
import { lastEventSeq, taskEvents } from './task-events';
import { contextIdSchema, contextTasksQuery, newContextId, newTaskId } from './task-ids';
import { callAnswered, readWaitingAnswer, waitingText } from './waiting-answer';

/** Where the HTTP front puts the signal that aborts when the client goes, in a call's context state. */
export const ABORT_SIGNAL_KEY = 'durable-agent/abort-signal';
/** Who answered an approval or added input through this server, as the run records it. */
const ANSWERED_BY = 'a2a client';

function signalOf(context: ServerCallContext): AbortSignal {
  const signal = context.state.get(ABORT_SIGNAL_KEY);
  return signal instanceof AbortSignal ? signal : new AbortController().signal;
}

/** historyLength as A2A means it: all without it, none at 0, else the newest N. */
function withHistoryLength(task: Task, historyLength: number | undefined): Task {
  if (historyLength === undefined) return task;
  return { ...task, history: historyLength <= 0 ? [] : task.history.slice(-historyLength) };
}

const stateName = (state: TaskState | undefined) => (state === undefined ? 'unknown' : TaskState[state].replace(/^TASK_STATE_/, '').toLowerCase().replace('_', '-'));

/**
 * A2A for one agent, served from Temporal: a message starts a run (or answers or steers the run of
 * the task it names), a task is read from its run, a stream follows the run's stream, a cancel
 * cancels the run. Nothing is kept in this process, so a task outlives the server that started it.
 * (The SDK's DefaultRequestHandler keeps each task's events on an in-process bus and in a task
 * store it writes to; here the run is both, so this handler answers from it directly.)
 */
export class RunRequestHandler implements A2ARequestHandler {
  constructor(
    private readonly client: AgentClient,
    private readonly agent: string,
    private readonly card: AgentCard,
    private readonly reader: RunTaskReader,
  ) {}

  async getAgentCard(): Promise<AgentCard> {
    return this.card;
  }

  async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    throw new UnsupportedOperationError('This agent has no extended agent card.');
  }

  async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    const { run, afterSeq } = await this.begin(params);
    if (!params.configuration?.returnImmediately) {
      // Blocking: the answer comes once the task ends or waits for the client.
      for await (const _ of taskEvents({ run, agent: this.agent, reader: this.reader, afterSeq, signal: signalOf(context) })) void _;
    }
    return withHistoryLength(await this.reader.read(run.workflowId, this.agent), params.configuration?.historyLength);
  }

  async *sendMessageStream(params: SendMessageRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    const { run, afterSeq } = await this.begin(params);
    yield* taskEvents({ run, agent: this.agent, reader: this.reader, afterSeq, signal: signalOf(context) });
  }

  async getTask(params: { id: string; historyLength?: number | undefined }): Promise<Task> {
    return withHistoryLength(await this.reader.read(params.id, this.agent), params.historyLength);
  }

  async cancelTask(params: { id: string }): Promise<Task> {
    const task = await this.reader.read(params.id, this.agent);
    const state = task.status?.state;
    if (state !== undefined && TERMINAL_STATES.has(state)) throw new TaskNotCancelableError(`Task ${params.id} has already ended (${stateName(state)}).`);
    await this.client.get(params.id).cancel();
    return this.reader.read(params.id, this.agent);
  }

  async *resubscribe(params: { id: string }, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    const run = this.client.get(params.id);
    this.reader.idsOf(params.id, this.agent);
    // Events from the run's last one on: what the task as first given does not show yet.
    const afterSeq = await lastEventSeq(run).catch(() => 0);
    const task = await this.reader.read(params.id, this.agent);
    const state = task.status?.state;
    if (state !== undefined && TERMINAL_STATES.has(state)) throw new UnsupportedOperationError(`Task ${params.id} has ended (${stateName(state)}): there is nothing to subscribe to; get it with GetTask.`);
    yield* taskEvents({ run, agent: this.agent, reader: this.reader, afterSeq, signal: signalOf(context) });
  }

  async listTasks(): Promise<never> {
    throw new UnsupportedOperationError('ListTasks is not served: get a task by its id (every task is a durable-agent run; `durable-agent list` lists runs).');
  }

  async createTaskPushNotificationConfig(): Promise<never> {
    throw new PushNotificationNotSupportedError('Push notifications are not supported: stream the task, or reconnect with SubscribeToTask.');
  }

  getTaskPushNotificationConfig = this.createTaskPushNotificationConfig;
  listTaskPushNotificationConfigs = this.createTaskPushNotificationConfig;
  deleteTaskPushNotificationConfig = this.createTaskPushNotificationConfig;

  /** Starts the run a message asks for, or hands the message to the run of its task; and where its stream starts. */
  private async begin(params: SendMessageRequest): Promise<{ run: AgentRun; afterSeq: number }> {
    const message = params.message;
    if (!message) throw new RequestMalformedError('The request has no message.');
    if (message.taskId) return this.continueTask(message);
    const context = message.contextId ? contextIdSchema.safeParse(message.contextId) : { success: true as const, data: newContextId() };
    if (!context.success) throw new RequestMalformedError(`contextId '${message.contextId.slice(0, 120)}': ${context.error.issues[0]!.message}.`);
    const prompt = textOfParts(message.parts).trim();
    if (!prompt) throw new RequestMalformedError('The message has no text: this agent takes its task as text parts.');
    const id = newTaskId(this.agent, context.data);
    const previous = await this.previousTask(message, context.data);
    try {
      if (previous) {
        // The context's conversation goes on: a fork of its last task, after that task's last event, with this message.
        const run = await previous.fork({ at: await lastEventSeq(previous), message: prompt, id });
        return { run, afterSeq: await lastEventSeq(run) };
      }
      const run = await this.client.start(this.agent, { prompt, id, sessionId: context.data });
      return { run, afterSeq: 0 };
    } catch (error) {
      if (error instanceof StartInputTooLargeError) throw new RequestMalformedError(error.message);
      if (error instanceof ForkRefusedError) throw new RequestMalformedError(`Task ${previous!.workflowId} of this context could not be continued: ${error.message}. Nothing was started.`);
      throw error;
    }
  }

  /**
   * The completed task whose conversation a new task of the context takes on: the first of the
   * message's referenceTaskIds, else the context's newest task (through visibility) when the client
   * named the context; none when that task has not completed (the new task starts afresh).
   */
  private async previousTask(message: Message, contextId: string): Promise<AgentRun | undefined> {
    let taskId: string | undefined;
    if (message.referenceTaskIds.length > 0) {
      taskId = message.referenceTaskIds[0]!;
      const ids = this.reader.idsOf(taskId, this.agent);
      if (ids.contextId !== contextId) throw new RequestMalformedError(`referenceTaskIds: task ${taskId} is in the context '${ids.contextId}', not '${contextId}'.`);
    } else if (message.contextId) {
      const tasks = await this.client.list({ query: contextTasksQuery(this.agent, contextId), limit: 100 });
      taskId = tasks.sort((a, b) => b.startTime.getTime() - a.startTime.getTime())[0]?.workflowId;
    }
    if (taskId === undefined) return undefined;
    const task = await this.reader.read(taskId, this.agent);
    return task.status?.state === TaskState.TASK_STATE_COMPLETED ? this.client.get(taskId) : undefined;
  }

  /** A message for a task: the answer to what it waits for, else input for the run in flight. */
  private async continueTask(message: Message): Promise<{ run: AgentRun; afterSeq: number }> {
    const ids = this.reader.idsOf(message.taskId, this.agent);
    if (message.contextId && message.contextId !== ids.contextId) {
      throw new RequestMalformedError(`Task ${message.taskId} is in the context '${ids.contextId}', not '${message.contextId}'.`);
    }
    const run = this.client.get(message.taskId);
    const task = await this.reader.read(message.taskId, this.agent);
    const state = task.status?.state;
    if (state !== undefined && TERMINAL_STATES.has(state)) {
      throw new UnsupportedOperationError(
        `Task ${message.taskId} has ended (${stateName(state)}) and takes no more messages; send a message with contextId '${ids.contextId}' and no taskId for a new task in the same context.`,
      );
    }
    const afterSeq = await lastEventSeq(run);
    try {
      if (state === TaskState.TASK_STATE_INPUT_REQUIRED) await this.answer(run, message);
      else {
        const text = textOfParts(message.parts).trim();
        if (!text) throw new RequestMalformedError(`Task ${message.taskId} is working: a message for it is text the run reads at its next model call, and this one has none.`);
        await run.addInput(text, { addedBy: ANSWERED_BY });
      }
    } catch (error) {
      if (error instanceof RunRequestRejectedError) throw new RequestMalformedError(`Task ${message.taskId} refused the message: ${error.message}`);
      throw error;
    }
    return { run, afterSeq };
  }

  private async answer(run: AgentRun, message: Message): Promise<void> {
    const { pending } = await run.state();
    const refuse = (problem: string) => new RequestMalformedError(`Not an answer for task ${run.workflowId}: ${problem}. Nothing was changed.\n${waitingText(pending)}`);
    const read = readWaitingAnswer(message.parts);
    if ('problem' in read) throw refuse(read.problem);
    const target = callAnswered(pending, read.answer);
    if ('problem' in target) throw refuse(target.problem);
    const { call } = target;
    const holder = this.client.get(call.workflowId ?? run.workflowId);
    const answerer = { answeredBy: ANSWERED_BY, argumentsDigest: call.argumentsDigest, rulesVersion: call.rulesVersion };
    const answer = read.answer;
    if (answer.kind === 'approve') await holder.approve(call.callId, answerer);
    else if (answer.kind === 'deny') await holder.deny(call.callId, answer.reason, answerer);
    else await holder.submit(call.callId, answer.output, { isError: answer.isError, ...answerer });
  }
}

