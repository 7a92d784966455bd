import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { FailureTypes } from '../common/failures';
import {
  addInputUpdate,
  approveAllSignal,
  conversationPageQuery,
  decideUpdate,
  delegateUpdate,
  type DelegateRequest,
  type DelegatedCall,
  eventsQuery,
  setGroupsSignal,
  stateQuery,
  submitToolResultUpdate,
  type AddedInput,
  type DecideRequest,
  type SetGroupsRequest,
} from '../common/definitions';
import type { AgentEvent } from '../common/events';
import type { Message } from '../common/messages';
import type { AgentRunResult, AgentRunState, ApprovalDecision, SubmittedResult } from '../common/run';
import type { agentWorkflow } from '../workflows/run';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../common/boundary/limits';
import { checkedRequest } from './checked-request';
import { readConversationPages } from '../common/contracts/conversation-reader';
import { readWhenWorkerFree } from './read-when-worker-free';
import { endedRunRefusal, isClosedRunError, RunRequestRejectedError, unwrapUpdateFailure } from './request-rejected';
import { describeExecution, type RunExecution } from './run-execution';
import { updatesOf, type RunUpdate } from './run-updates';
import type { DataParser, RunResult } from './typed-data';
import { streamRun, type StreamOptions } from './stream/run-stream';
import type { StreamItem } from './stream/stream-items';
import { startFork, type ForkOptions } from './fork/start-fork';

export type { PartialTextUpdate, RunUpdate, SubAgentUpdate } from './run-updates';

function heldBySubAgent(error: unknown): string | undefined {
  const cause = error instanceof WorkflowUpdateFailedError ? error.cause : undefined;
  if (!(cause instanceof ApplicationFailure) || cause.type !== FailureTypes.heldBySubAgent) return undefined;
  const holder = cause.details?.[0];
  return typeof holder === 'string' && holder.length > 0 ? holder : undefined;
}

/** A range of a run's conversation (`from` inclusive, `to` exclusive) and how many messages it has. */
export interface MessagesPage {
  messages: Message[];
  from: number;
  to: number;
  total: number;
}

/** Who answers a call, recorded with the decision or result and in the run's event. */
export interface Answerer {
  answeredBy?: string;
  /**
   * What the answer was given for: the waiting call's `argumentsDigest` and `rulesVersion` as it
   * was shown (PendingCall, WaitingCall). The run refuses the answer when the call's arguments or
   * rules are no longer those. Optional; the surfaces of this package always send them.
   */
  argumentsDigest?: string | undefined;
  rulesVersion?: string | undefined;
}

function answererOf(options: Answerer): Answerer {
  return {
    ...(options.answeredBy !== undefined ? { answeredBy: options.answeredBy } : {}),
    ...(options.argumentsDigest !== undefined ? { argumentsDigest: options.argumentsDigest } : {}),
    ...(options.rulesVersion !== undefined ? { rulesVersion: options.rulesVersion } : {}),
  };
}

export interface WatchOptions {
  /** Between reads of the events query (the stream's `eventsPollMs`). Default 500 ms. */
  intervalMs?: number;
  /** Start after this event sequence number. */
  afterSeq?: number;
  signal?: AbortSignal;
}

/**
 * A handle on one agent run (a workflow), typed over its signals, updates and queries. `TData` is
 * the type of its typed answer, when the client was given the agent's definition with an output schema.
 */
export class AgentRun<TData = unknown> {
  constructor(
    readonly handle: WorkflowHandle<typeof agentWorkflow>,
    readonly webUiUrl: string,
    /** Requests larger than this (bytes of JSON) are refused before they are sent; the run has a limit of its own. */
    readonly maxPayloadBytes: number = DEFAULT_MAX_PAYLOAD_BYTES,
    /** Whether the server handed the run's first workflow task to a worker of this process at start (AgentClient `eagerStart`). */
    readonly eagerlyStarted = false,
    /** Parses the typed answer with the agent's output schema (given the agent's definition). */
    private readonly parseData?: DataParser,
    /** The Web UI link of another run (a fork's), as the client that made this handle writes it. */
    private readonly linkFor?: (workflowId: string, runId?: string) => string,
  ) {}

  get workflowId(): string {
    return this.handle.workflowId;
  }

  /**
   * The run's result with its whole conversation: messages a long run's result left out are read
   * through the `conversationPage` query. A typed answer (`data`) is parsed with the agent's output
   * schema when the run was started or got with the agent's definition.
   */
  async result(): Promise<RunResult<TData>> {
    const whole = await this.wholeResult();
    if (!this.parseData || whole.data === undefined) return whole as RunResult<TData>;
    return { ...whole, data: this.parseData(whole.data, this.workflowId) } as RunResult<TData>;
  }

  private async wholeResult(): Promise<AgentRunResult> {
    const result = await this.handle.result();
    if (result.messageCount === undefined || result.messageCount <= result.messages.length) return result;
    const missing = result.messageCount - result.messages.length;
    const earlier = await readConversationPages(
      (page) => readWhenWorkerFree(() => this.handle.query(conversationPageQuery, page)),
      0,
      missing,
      (got) => new Error(`Run ${this.workflowId} answered ${got} of its first ${missing} messages`),
    );
    const { messageCount: _count, ...whole } = result;
    return { ...whole, messages: [...earlier, ...result.messages] };
  }

  /**
   * Messages `from`…`to` (default: the whole conversation) of the run, read page by page under
   * Temporal's payload limit however long it is, with the conversation's length. The state's
   * newest messages serve the range when they hold it (one query).
   */
  async messages(range: { from?: number; to?: number } = {}): Promise<MessagesPage> {
    const state = await this.state();
    const total = state.messageCount ?? state.messages.length;
    const to = Math.min(range.to ?? total, total);
    const from = Math.min(Math.max(0, range.from ?? 0), to);
    const firstHeld = total - state.messages.length;
    if (from >= firstHeld) return { messages: state.messages.slice(from - firstHeld, to - firstHeld), from, to, total };
    const messages = await readConversationPages(
      (page) => readWhenWorkerFree(() => this.handle.query(conversationPageQuery, page)),
      from,
      to,
      (got) => new Error(`Run ${this.workflowId} answered messages up to ${got} of ${from}…${to}`),
    );
    return { messages, from, to, total };
  }

  /**
   * A new run from this run's conversation as it stood after its event `at` (a `seq` of
   * `events()`): its messages, the results its tools had given, its spend, tool groups and session
   * rules. Nothing that ran before that point runs again (a call that had not finished is answered
   * as not run); the fork calls the model next, with `message`, `model` and `instructions` when
   * given. A conversation forks into a conversation (the handle's `workflowId`); a sub-agent's
   * run into a run of its agent. Refused with ForkRefusedError before anything starts when the
   * point or an edit is not one the run allows.
   */
  async fork(options: ForkOptions): Promise<AgentRun> {
    const started = await startFork(this, options, this.maxPayloadBytes);
    const handle = this.handle.client.getHandle<typeof agentWorkflow>(started.workflowId);
    const link = this.linkFor?.(started.workflowId, started.runId) ?? this.webUiUrl.replace(encodeURIComponent(this.workflowId), encodeURIComponent(started.workflowId));
    return new AgentRun(handle, link, this.maxPayloadBytes, false, undefined, this.linkFor);
  }

  /** The run's state, read by a query (a query no worker took in time is asked again, as for `eventsAfter` and `messages`). */
  state(): Promise<AgentRunState> {
    return readWhenWorkerFree(() => this.handle.query(stateQuery));
  }

  eventsAfter(afterSeq = 0): Promise<AgentEvent[]> {
    return readWhenWorkerFree(() => this.handle.query(eventsQuery, afterSeq));
  }

  /** Approve a waiting call; `input` replaces its arguments (validated again), `remember` allows such calls for the run. */
  approve(callId: string, options: { input?: unknown; remember?: boolean; reason?: string } & Answerer = {}): Promise<ApprovalDecision> {
    return this.decide({
      callId,
      approved: true,
      ...(options.input !== undefined ? { input: options.input } : {}),
      ...(options.remember ? { remember: 'session' as const } : {}),
      ...(options.reason ? { reason: options.reason } : {}),
      ...answererOf(options),
    });
  }

  deny(callId: string, reason?: string, options: Answerer = {}): Promise<ApprovalDecision> {
    return this.decide({ callId, approved: false, ...(reason ? { reason } : {}), ...answererOf(options) });
  }

  /**
   * Hands a waiting call to other approvers (identities or `group:NAME`), who alone may answer it
   * from then on; `answeredBy` must be one who may answer it now. Refused with the reason otherwise.
   */
  delegate(callId: string, to: string[], options: { reason?: string } & Answerer = {}): Promise<DelegatedCall> {
    return this.send(() => {
      const request = checkedRequest('delegate', { callId, to, ...(options.reason ? { reason: options.reason } : {}), ...answererOf(options) }, this.maxPayloadBytes);
      return this.toHolder((handle) => handle.executeUpdate(delegateUpdate, { args: [request as DelegateRequest] }));
    });
  }

  approveAll(options: { remember?: boolean } = {}): Promise<void> {
    return this.send(() =>
      this.handle.signal(approveAllSignal, checkedRequest('approveAll', options.remember ? { remember: 'session' } : {}, this.maxPayloadBytes)),
    );
  }

  submit(callId: string, output: string, options: { isError?: boolean } & Answerer = {}): Promise<SubmittedResult> {
    return this.send(() => {
      const request = checkedRequest(
        'submitToolResultUpdate',
        { callId, output, ...(options.isError ? { isError: true } : {}), ...answererOf(options) },
        this.maxPayloadBytes,
      );
      return this.toHolder((handle) => handle.executeUpdate(submitToolResultUpdate, { args: [request] }));
    });
  }

  /**
   * Adds a user message to the run while it works or waits (steering): its next model call sees
   * it, after the messages before it, once; with `steering: 'interrupt'` on the agent the model
   * call in flight is cancelled and made again with it. Refused (RunRequestRejectedError) once the
   * run has ended, or while a conversation is idle (send it a message instead).
   */
  addInput(text: string, options: { addedBy?: string } = {}): Promise<AddedInput> {
    return this.send(() => {
      const request = checkedRequest('addInput', { text, ...(options.addedBy !== undefined ? { addedBy: options.addedBy } : {}) }, this.maxPayloadBytes);
      return this.handle.executeUpdate(addInputUpdate, { args: [request] }).catch((error: unknown) => {
        // The server answers an update to a closed run itself, in its own words.
        if (isClosedRunError(error)) {
          throw new RunRequestRejectedError(`run ${this.workflowId} has ended; it takes no more input`, error);
        }
        throw error;
      });
    });
  }

  setGroups(change: SetGroupsRequest): Promise<void> {
    return this.send(() => this.handle.signal(setGroupsSignal, checkedRequest('setGroups', change, this.maxPayloadBytes)));
  }

  private decide(request: { callId: string; approved: boolean } & Record<string, unknown>): Promise<ApprovalDecision> {
    return this.send(() => {
      const checked = checkedRequest('decide', request, this.maxPayloadBytes);
      return this.toHolder((handle) => handle.executeUpdate(decideUpdate, { args: [checked as DecideRequest] }));
    });
  }

  /**
   * An answer for a call that waits in a sub-agent run (at any depth) is refused by this run with
   * that run's id; it is sent there once more.
   */
  private async toHolder<T>(send: (handle: WorkflowHandle<typeof agentWorkflow>) => Promise<T>): Promise<T> {
    try {
      return await send(this.handle);
    } catch (error) {
      const holder = heldBySubAgent(error);
      if (!holder) throw endedRunRefusal(this.workflowId, error);
      return send(this.handle.client.getHandle(holder)).catch((inHolder: unknown) => {
        throw endedRunRefusal(holder, inHolder);
      });
    }
  }

  /** Checks throw synchronously; as a rejected promise they reach callers like the run's own refusals. */
  private send<T>(update: () => Promise<T>): Promise<T> {
    try {
      return unwrapUpdateFailure(update());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  cancel(): Promise<void> {
    return this.handle.cancel().then(() => undefined);
  }

  /**
   * Every event of the run, in order, live until the run ends: `stream()`'s events, without its
   * deltas or sub-agents (it reads no heartbeat and follows no sub-agent). Follows continue-as-new
   * (the sequence numbers carry over). Queries read workflow state: nothing is added to history.
   */
  async *events(options: WatchOptions = {}): AsyncGenerator<AgentEvent> {
    for await (const update of this.updates({ ...options, partialText: false })) {
      if (update.type !== 'partial_text' && update.type !== 'subagent_event') yield update;
    }
  }

  /**
   * `stream()` as events: like `events()`, and after each piece of text a model call of this run
   * writes, that call's whole text so far (`partial_text`, with its attempt: a call made again
   * starts its text over; `partialText: false` leaves them out); with `subAgents: true`, the
   * events of its sub-agent runs at any depth (`subagent_event`), a sub-agent's before its
   * parent's `subagent_finished`. The text is read live from the worker that writes it, as
   * `stream()` reads it, across a killed worker. Tool-call deltas, quota waits and the
   * sub-agents' text are `stream()`'s alone.
   */
  updates(options: WatchOptions & { partialText?: boolean; subAgents?: boolean } = {}): AsyncGenerator<RunUpdate> {
    const partialText = options.partialText !== false;
    const subAgents = options.subAgents === true;
    const items = streamRun(
      this.handle.client,
      this.workflowId,
      {
        eventsPollMs: options.intervalMs ?? 500,
        ...(options.afterSeq !== undefined ? { afterSeq: options.afterSeq } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      },
      { deltas: partialText, subAgents },
    );
    return updatesOf(items, { partialText, subAgents });
  }

  /**
   * The run as a stream an app can show: its events (with what a waiting call needs to be answered
   * in place, and the result with the last one), the text and tool-call deltas of its model calls
   * as they are written, a model call made again after its worker died, and its sub-agents' streams
   * nested. Every item has a cursor: `stream({ from: cursor })` goes on after it, after a reload, a
   * dropped connection or a continue-as-new. Nothing is added to the run's history.
   */
  stream(options: StreamOptions = {}): AsyncGenerator<StreamItem> {
    return streamRun(this.handle.client, this.workflowId, options);
  }

  /** The run's execution as Temporal describes it (status, times), read without decoding its memo. */
  execution(): Promise<RunExecution> {
    return describeExecution(this.handle);
  }
}
