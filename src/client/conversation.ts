import { fairnessPriority, type FairnessOption } from './fairness';
import {
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowUpdateFailedError,
  type Client,
  type WorkflowUpdateHandle,
} from '@temporalio/client';
import {
  conversationWorkflowId,
  endConversationUpdate,
  idleTimeoutMs,
  sendMessageUpdate,
  type ConversationInput,
  type ConversationResult,
  type TurnResult,
} from '../common/conversation';
import type { RuntimeContext } from '../common/runtime';
import { conversationStartOptions } from '../common/conversation-start';
import type { conversationWorkflow } from '../workflows/run';
import { AgentRun, type MessagesPage } from './agent-run';
import { checkedRequest } from './checked-request';
import { checkedBudget, type Budget } from '../common/budget';
import { RunRequestRejectedError } from './request-rejected';
import type { DataParser } from './typed-data';

export interface ConversationOptions {
  /** Names the conversation: the same agent and session id always reach the same conversation. */
  sessionId: string;
  /** Given to the agent's tools (`ctx.runtime`); the session id is added. Used when the first message starts the conversation. */
  runtime?: RuntimeContext;
  /** No message for this long ends the conversation (a duration: `'30d'`, `'2 hours'`, ms); 30 days by default. */
  idleTimeout?: string | number;
  /** Iterations per turn; the agent's maxIters by default. */
  maxItersPerTurn?: number;
  /** Continue as new between turns once the history passes this many events (Temporal's suggestion also counts). */
  continueAsNewAfterEvents?: number;
  /** The model the conversation calls in place of the agent's (its fallbacks are not used). */
  model?: string;
  /** The conversation's share of the task queue among other users' runs: its `runtime.userId` by default (see FairnessOption). */
  fairness?: FairnessOption;
  /** What the conversation may spend on model calls across all its turns (see Budget); used when the first message starts it. */
  budget?: Budget;
}

/** A message sent with `{ wait: false }`: accepted by the conversation, answered later. */
export interface SentMessage<TData = unknown> {
  result(): Promise<TurnResult<TData>>;
}

/** The conversation ended (by `end()` or its idle timeout): it takes no more messages. */
export class ConversationEndedError extends Error {
  constructor(
    readonly workflowId: string,
    override readonly cause?: unknown,
  ) {
    super(`The conversation ${workflowId} has ended and takes no more messages; use another sessionId for a new one.`);
    this.name = 'ConversationEndedError';
  }
}

function endedOr(workflowId: string, error: unknown): unknown {
  if (error instanceof WorkflowExecutionAlreadyStartedError) return new ConversationEndedError(workflowId, error);
  if (error instanceof WorkflowUpdateFailedError) {
    const reason = error.cause?.message ?? error.message;
    return reason.includes('has ended') ? new ConversationEndedError(workflowId, error) : new RunRequestRejectedError(reason, error);
  }
  return error;
}

/**
 * A conversation with one agent, kept by Temporal for as long as it lives: `send` starts it if
 * needed and delivers the message in one call (update-with-start). Approvals, state and events go
 * through `run`, the same handle as for a run.
 */
export class Conversation<TData = unknown> {
  readonly workflowId: string;

  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
    readonly agent: string,
    private readonly options: ConversationOptions,
    readonly run: AgentRun,
    private readonly parseData?: DataParser,
  ) {
    this.workflowId = run.workflowId;
  }

  /** Sends a message and resolves with its turn's answer (after earlier messages are answered). */
  send(text: string): Promise<TurnResult<TData>>;
  /** Sends a message and resolves once the conversation accepted it; `result()` waits for the answer. */
  send(text: string, options: { wait: false }): Promise<SentMessage<TData>>;
  async send(text: string, options: { wait?: boolean } = {}): Promise<TurnResult<TData> | SentMessage<TData>> {
    const request = checkedRequest('sendMessage', { text }, this.run.maxPayloadBytes);
    const startWorkflowOperation = this.startOperation();
    try {
      if (options.wait === false) {
        const update: WorkflowUpdateHandle<TurnResult> = await this.client.workflow.startUpdateWithStart(sendMessageUpdate, {
          args: [request],
          waitForStage: 'ACCEPTED',
          startWorkflowOperation,
        });
        return { result: () => update.result().then((turn) => this.typed(turn), (error: unknown) => Promise.reject(endedOr(this.workflowId, error))) };
      }
      return this.typed(await this.client.workflow.executeUpdateWithStart(sendMessageUpdate, { args: [request], startWorkflowOperation }));
    } catch (error) {
      throw endedOr(this.workflowId, error);
    }
  }

  private typed(turn: TurnResult): TurnResult<TData> {
    if (!this.parseData || turn.data === undefined) return turn as TurnResult<TData>;
    return { ...turn, data: this.parseData(turn.data, this.workflowId) } as TurnResult<TData>;
  }

  /** Messages of the conversation, every turn's (see AgentRun.messages). */
  messages(range: { from?: number; to?: number } = {}): Promise<MessagesPage> {
    return this.run.messages(range);
  }

  /** Ends the conversation once the messages already sent are answered; resolves with the conversation's result. */
  async end(): Promise<ConversationResult> {
    try {
      await this.run.handle.executeUpdate(endConversationUpdate, { args: [{}] });
    } catch (error) {
      // Ended already (closed): its result is still there.
      if (!(error instanceof WorkflowUpdateFailedError) && (error as Error)?.name !== 'WorkflowNotFoundError') throw error;
    }
    return (await this.run.handle.result()) as unknown as ConversationResult;
  }

  private startOperation() {
    const priority = fairnessPriority(this.options.runtime?.userId, this.options.fairness);
    return new WithStartWorkflowOperation<typeof conversationWorkflow>('conversationWorkflow', {
      taskQueue: this.taskQueue,
      ...conversationStartOptions(conversationInputOf(this.agent, this.options), priority),
    });
  }
}

/** What starts the conversation of `agent` with these options (the first message's, or a schedule's first fire). */
export function conversationInputOf(agent: string, options: ConversationOptions): ConversationInput {
  return {
    agent,
    sessionId: options.sessionId,
    ...(options.runtime ? { runtime: options.runtime } : {}),
    ...(options.idleTimeout !== undefined ? { idleTimeout: options.idleTimeout } : {}),
    ...(options.maxItersPerTurn !== undefined ? { maxItersPerTurn: options.maxItersPerTurn } : {}),
    ...(options.continueAsNewAfterEvents !== undefined ? { continueAsNewAfterEvents: options.continueAsNewAfterEvents } : {}),
    ...(options.budget !== undefined ? { budget: options.budget } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
  };
}

/** The options checked before anything is sent: a bad idle timeout fails here, not in the workflow. */
export function checkedConversationOptions(options: ConversationOptions): ConversationOptions {
  if (!options.sessionId || typeof options.sessionId !== 'string') throw new TypeError('A conversation needs a sessionId (a non-empty string).');
  if (options.idleTimeout !== undefined) idleTimeoutMs(options.idleTimeout);
  fairnessPriority(options.runtime?.userId, options.fairness);
  checkedBudget('budget', options.budget);
  return options;
}

export { conversationWorkflowId };
