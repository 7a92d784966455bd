import { Client, Connection, type ClientInterceptors, type ConnectionLike } from '@temporalio/client';
import type { DataConverter, TypedSearchAttributes } from '@temporalio/common';
import { decodeTypedSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes';
import { optionalTsToDate } from '@temporalio/common/lib/time';
import type { temporal } from '@temporalio/proto';
import { workflowStatusName } from './run-execution';
import type { RunStatus } from '../common/run';
import { AGENT_FORK_OF, AGENT_NAME, AGENT_SESSION_ID, AGENT_STATUS, AGENT_TURNS } from '../common/search-attributes';
import type { agentWorkflow } from '../workflows/run';
import { AgentRun } from './agent-run';
import { readWaitingCalls, waitingRunsQuery, type WaitingCallsOptions, type WaitingCallsPage } from './waiting-calls';
import { checkStartInputSize } from './start-input-size';
import { agentStartRequest, type StartOptions } from './start-request';

export type { StartOptions } from './start-request';
import { checkedConversationOptions, Conversation, conversationWorkflowId, type ConversationOptions } from './conversation';
import { readClientConfig, runWebUiLink, webUiUrlFor, type ClientConfig } from './client-config';
import { connectClient } from '../connection/connect-client';
import { dataConverterFromEnv } from '../codec/encrypted-data-converter';
import { splitConnectionOverrides, type ConnectionOverrides } from '../connection/connection-overrides';
import type { TelemetryOptions } from '../telemetry/telemetry-options';
import type { Tracing } from '../telemetry/tracing';
import { clientInterceptorsFor, tracingWhenWanted } from '../telemetry/tracing-when-wanted';
import { resolveConnectionSettings, resolveConnectionTarget } from '../connection/connection-settings';
import { agentNameOf, dataParserOf, type AgentRef } from './typed-data';
import { AgentSchedules, type AgentSchedule, type AgentScheduleOptions, type AgentScheduleSummary } from './schedules';

/**
 * Client settings over the environment's; the connection ones (address, namespace, TLS, API key,
 * profile) win over TEMPORAL_* variables and the config profile. With `connection`, that one is used.
 */
export type AgentClientOptions = Partial<Omit<ClientConfig, 'address' | 'namespace'>> &
  ConnectionOverrides & {
    /**
     * A connection of your own: a Connection, or the NativeConnection of a worker in this process
     * (which `eagerStart` needs).
     */
    connection?: ConnectionLike;
    /**
     * Ask the server to hand each new run's first workflow task straight to a worker of this
     * process, skipping a trip through the task queue: needs `connection` to be the NativeConnection
     * of a worker running in this process for the run's task queue, and a server with
     * `system.enableEagerWorkflowStart`. When no such worker has a free slot, the run starts as usual.
     */
    eagerStart?: boolean;
    /**
     * The same data converter (e.g. the encryption codec) the workers use. Without it, the keys of
     * AGENT_ENCRYPTION_KEY_FILE or AGENT_ENCRYPTION_KEYS are used when set (encryptedDataConverter).
     */
    dataConverter?: DataConverter;
    /** Temporal client interceptors (e.g. tracing). */
    interceptors?: ClientInterceptors;
    /** Tracing, as createWorker takes it: spans for starting runs, signals, updates and queries. */
    telemetry?: TelemetryOptions | false;
  };

export interface RunSummary {
  workflowId: string;
  runId: string;
  agent?: string;
  status?: RunStatus | string;
  temporalStatus: string;
  startTime: Date;
  closeTime?: Date;
  /** Conversations only: the session id and the messages answered so far. */
  sessionId?: string;
  turns?: number;
  /** Forks only: the workflow id of the run it was forked from. */
  forkOf?: string;
}

function runSummaryOf(execution: temporal.api.workflow.v1.IWorkflowExecutionInfo): RunSummary {
  const attributes = decodeTypedSearchAttributes(execution.searchAttributes?.indexedFields);
  const closeTime = optionalTsToDate(execution.closeTime);
  return {
    workflowId: execution.execution?.workflowId ?? '',
    runId: execution.execution?.runId ?? '',
    agent: attributes.get(AGENT_NAME),
    status: attributes.get(AGENT_STATUS),
    temporalStatus: workflowStatusName(execution.status),
    startTime: optionalTsToDate(execution.startTime) ?? new Date(0),
    ...(closeTime ? { closeTime } : {}),
    ...conversationFields(attributes),
    ...forkField(attributes),
  };
}

function forkField(attributes: TypedSearchAttributes): Pick<RunSummary, 'forkOf'> {
  const forkOf = attributes.get(AGENT_FORK_OF);
  return forkOf !== undefined ? { forkOf } : {};
}

function conversationFields(attributes: TypedSearchAttributes): Pick<RunSummary, 'sessionId' | 'turns'> {
  const sessionId = attributes.get(AGENT_SESSION_ID);
  const turns = attributes.get(AGENT_TURNS);
  return { ...(sessionId !== undefined ? { sessionId } : {}), ...(turns !== undefined ? { turns } : {}) };
}

/** Starts and finds agent runs; a thin typed layer over Temporal's workflow client. */
export class AgentClient {
  private constructor(
    readonly client: Client,
    readonly config: ClientConfig,
    private readonly ownConnection?: Connection,
    private readonly tracing?: Tracing,
    private readonly eagerStart = false,
  ) {}

  static async connect(options: AgentClientOptions = {}): Promise<AgentClient> {
    const { overrides, rest } = splitConnectionOverrides(options);
    const { connection: given, dataConverter: givenConverter, interceptors: givenInterceptors, telemetry, eagerStart, ...own } = rest;
    // Read before connecting: keys that cannot be used fail without a round trip.
    const dataConverter = givenConverter ?? dataConverterFromEnv().dataConverter;
    const settings = given ? undefined : resolveConnectionSettings(overrides);
    const { address, namespace } = settings ?? resolveConnectionTarget(overrides);
    const env = readClientConfig();
    const config: ClientConfig = { ...env, ...own, webUiUrl: own.webUiUrl ?? env.webUiUrl ?? webUiUrlFor(address), address, namespace };
    const connection = given ?? (await connectClient(settings!));
    const tracing = tracingWhenWanted(telemetry);
    const interceptors = clientInterceptorsFor(tracing, givenInterceptors);
    const client = new Client({ connection, namespace, dataConverter, ...(interceptors ? { interceptors } : {}) });
    return new AgentClient(client, config, given ? undefined : (connection as Connection), tracing, eagerStart ?? false);
  }

  /**
   * Starts a run of the agent, named or given by its definition; with a definition whose agent has
   * an output schema, `result()` gives the typed answer as `data`.
   */
  async start<TData = unknown>(agentRef: AgentRef<TData>, options: StartOptions): Promise<AgentRun<TData>> {
    const agent = agentNameOf(agentRef);
    const { workflowType, args, ...request } = agentStartRequest(agent, options);
    checkStartInputSize(agent, request.workflowId, args[0], this.config.maxPayloadBytes);
    const handle = await this.client.workflow.start<typeof agentWorkflow>(workflowType, {
      taskQueue: this.config.taskQueue,
      args,
      ...request,
      ...(this.eagerStart ? { requestEagerStart: true } : {}),
    });
    return new AgentRun(
      this.client.workflow.getHandle(handle.workflowId),
      this.link(handle.workflowId, handle.firstExecutionRunId),
      this.config.maxPayloadBytes,
      handle.eagerlyStarted ?? false,
      dataParserOf(agentRef),
      this.linkFor,
    );
  }

  /**
   * A conversation with an agent, named by its session id: `send` starts it with the first message
   * and reaches it with the next ones, for as long as it lives.
   */
  conversation<TData = unknown>(agentRef: AgentRef<TData>, options: ConversationOptions): Conversation<TData> {
    const agent = agentNameOf(agentRef);
    const checked = checkedConversationOptions(options);
    const workflowId = conversationWorkflowId(agent, checked.sessionId);
    return new Conversation<TData>(this.client, this.config.taskQueue, agent, checked, this.get(workflowId), dataParserOf(agentRef));
  }

  /**
   * Runs the agent on a Temporal Schedule (cron or every), each fire a run named after the schedule
   * and its fire time, or with `conversation` a turn of one conversation (docs/schedules.md).
   * A bad option or cron expression, or an id in use, throws and creates nothing.
   */
  schedule(agentRef: AgentRef, options: AgentScheduleOptions): Promise<AgentSchedule> {
    return this.schedules.create(agentNameOf(agentRef), options);
  }

  /** A schedule of agent runs by id (ScheduleNotFoundError when none, or when it starts something else). */
  getSchedule(id: string): Promise<AgentSchedule> {
    return this.schedules.get(id);
  }

  /** The schedules that start agent runs (marked by the AgentName search attribute). */
  listSchedules(): Promise<AgentScheduleSummary[]> {
    return this.schedules.list();
  }

  private get schedules(): AgentSchedules {
    const page = (id: string) => `${this.config.webUiUrl}/namespaces/${encodeURIComponent(this.config.namespace)}/schedules/${encodeURIComponent(id)}`;
    return new AgentSchedules(this.client, this.config.taskQueue, page, this.config.maxPayloadBytes);
  }

  /**
   * A run by workflow id (the latest run of its continue-as-new chain); given the agent's
   * definition, its typed answer is parsed as with `start`.
   */
  get<TData = unknown>(workflowId: string, agent?: AgentRef<TData>): AgentRun<TData> {
    const parse = agent === undefined ? undefined : dataParserOf(agent);
    return new AgentRun(this.client.workflow.getHandle(workflowId), this.link(workflowId), this.config.maxPayloadBytes, false, parse, this.linkFor);
  }

  private readonly linkFor = (workflowId: string, runId?: string): string => this.link(workflowId, runId);

  link(workflowId: string, runId?: string): string {
    return runWebUiLink(this.config, workflowId, runId);
  }

  /**
   * Recent runs through visibility; `query` is a Temporal list filter added to the agent filter.
   * Read without decoding memos: a run's memo (what it waits on) may be encrypted with a key this
   * client does not have, and a list needs only the search attributes.
   */
  async list(options: { query?: string; limit?: number } = {}): Promise<RunSummary[]> {
    const filters = [`WorkflowType IN ('agentWorkflow', 'conversationWorkflow', 'scheduledTurnWorkflow')`, ...(options.query ? [`(${options.query})`] : [])];
    const limit = options.limit ?? 20;
    const runs: RunSummary[] = [];
    let nextPageToken: Uint8Array | undefined;
    do {
      const response = await this.client.workflowService.listWorkflowExecutions({
        namespace: this.config.namespace,
        query: filters.join(' AND '),
        pageSize: Math.min(limit - runs.length, 1_000),
        ...(nextPageToken ? { nextPageToken } : {}),
      });
      for (const execution of response.executions) runs.push(runSummaryOf(execution));
      nextPageToken = response.nextPageToken && response.nextPageToken.length > 0 ? response.nextPageToken : undefined;
    } while (nextPageToken && runs.length < limit);
    return runs.slice(0, limit);
  }

  /**
   * One page of the calls that wait for a person (approvals and external results), across every
   * run, conversation and sub-agent: read from visibility, where each run publishes what it waits
   * on, so no run is asked. Follow `nextPageToken` for the rest; nothing is left out.
   */
  waitingCalls(options: WaitingCallsOptions = {}): Promise<WaitingCallsPage> {
    return readWaitingCalls(this, options);
  }

  /** How many open runs wait for a person (`query` narrows them as in waitingCalls). */
  async countWaitingRuns(query?: string): Promise<number> {
    const { count } = await this.client.workflow.count(waitingRunsQuery(query));
    return count;
  }

  async close(): Promise<void> {
    await this.ownConnection?.close();
    await this.tracing?.close();
  }
}
