import type { Budget, RunBudget, Spend } from './budget';
import type { ConversationWindow } from './memory';
import type { AgentDescriptor } from './agent';
import type { AgentEvent } from './events';
import type { Message, TokenUsage, ToolCall } from './messages';
import type { PermissionDecision } from './permissions';
import type { RuntimeContext } from './runtime';
import type { JsonSchema } from './tools';
import type { TopRun } from './contracts/published-waits';
import type { ForkOrigin, ForkStart } from './fork';
import type { RepeatedCall, ToolCallRecord } from './tool-call-record';
import type { ApprovalFacts } from './approval-facts';

/** Every status of a run (`AgentStatus`); conversations also `idle` (between turns) and `ended` (by `endConversation` or the idle timeout). */
export const RUN_STATUSES = ['running', 'awaiting_approval', 'awaiting_external', 'completed', 'failed', 'max_iterations', 'budget_exhausted', 'cancelled', 'idle', 'ended'] as const;

export type RunStatus = (typeof RUN_STATUSES)[number];

/** How a run that was not cancelled and did not fail ended: `budget_exhausted` with its partial answer when its budget was reached and not raised. */
export type FinalStatus = Extract<RunStatus, 'completed' | 'max_iterations' | 'budget_exhausted'>;

export interface AgentRunOptions {
  maxIters?: number;
  /** Continue as new once the history passes this many events (Temporal's suggestion also counts). */
  continueAsNewAfterEvents?: number;
  /** This run's budget (with the agent's, each limit the smaller); a sub-agent's is what is left of its parent's. */
  budget?: Budget;
  /** The model this run calls in place of the agent's (its fallbacks are not used): forks and evals on other models. */
  model?: string;
}

/** A sub-agent run's link to the run whose tool call started it. */
export interface ParentRun {
  workflowId: string;
  /** The parent's tool call this run answers. */
  callId: string;
  /** 1 for a sub-agent of a top-level run, 2 for its sub-agent, … */
  depth: number;
  /** The parent's session rules, when the agent tool passes them on. */
  sessionRules?: string[];
  /** The top-level run above it (absent in runs started by parents before 0.6.0: then the parent is taken). */
  root?: TopRun;
}

/**
 * The start input's version, set by the clients of 0.5.0 on (AgentClient, sub-agent calls). A run
 * started with version 2 or later takes the behaviours that older runs decided by a patch marker
 * (the sparse search-attribute writes of 0.3.0) without recording that marker, so a run costs one
 * marker and one search-attribute upsert less; a run without it asks `patched()` as before.
 */
export const START_INPUT_VERSION = 2;

export interface AgentWorkflowInput {
  agent: string;
  prompt: string;
  /** See START_INPUT_VERSION; absent in runs started by older clients. */
  startInputVersion?: number;
  runtime?: RuntimeContext;
  options?: AgentRunOptions;
  /** Set when the run is a sub-agent, started by another run's tool call (a child workflow). */
  parent?: ParentRun;
  /** Set only by continue-as-new: the state carried into the next run. */
  carried?: CarriedState;
  /** Set when the run is a fork of another: the conversation it starts from. */
  fork?: ForkStart;
}

/** A tool call waiting for a person (ASK) or for an outside result (external). */
export interface PendingCall extends ApprovalFacts {
  callId: string;
  tool: string;
  kind: 'approval' | 'external';
  /** Set on the call a run makes itself to ask for more budget (its tool is `$budget`). */
  budget?: true;
  input: unknown;
  /** For approvals: why the engine asked, and the rule that would allow it from now on. */
  decision?: PermissionDecision;
  since: string;
  /** Set when the call waits in a sub-agent run (at any depth): that run's workflow id; answers go there. */
  workflowId?: string;
  /** The sub-agent that made the call (with workflowId). */
  agent?: string;
  /** An earlier call of the run with the same tool and arguments that already ran, and the start of its result. */
  repeats?: RepeatedCall;
  /**
   * The JSON Schema of the tool's input, from the description the holding run recorded at its
   * start (so a form for edits needs no agents module). Only in the holder's own state.
   */
  schema?: JsonSchema;
}

/** What one sub-agent call cost, in the parent's result (its own sub-agents included). */
export interface SubAgentUsage {
  callId: string;
  workflowId: string;
  agent: string;
  status: FinalStatus | 'failed' | 'refused';
  usage: TokenUsage;
  cost?: number;
}

/** A person's answer to an ASK, as the workflow recorded it. */
export interface ApprovalDecision {
  callId: string;
  approved: boolean;
  reason?: string;
  input?: unknown;
  remember?: 'session';
  /** Who answered, as the sender named them (the inbox's signed-in person, or the name a library caller gives). */
  answeredBy?: string;
  decidedAt: string;
}

export interface SubmittedResult {
  callId: string;
  output: string;
  isError?: boolean;
  answeredBy?: string;
  submittedAt: string;
}

/** A user message added to a run in flight, waiting for the next model call. */
export interface QueuedInput {
  position: number;
  text: string;
  addedBy?: string;
}

/** What continue-as-new carries from one run to the next. */
export interface CarriedState {
  descriptor: AgentDescriptor;
  messages: Message[];
  usage: TokenUsage;
  cost?: number;
  iterations: number;
  activeGroups: string[];
  sessionRules: string[];
  events: AgentEvent[];
  nextEventSeq: number;
  /** Answers that arrived for calls the next run will handle, one record per call. */
  calls?: ToolCallRecord[];
  /** As runs of 0.4.0 and earlier carried such answers (read through a migration). */
  approvals?: ApprovalDecision[];
  submissions?: SubmittedResult[];
  continuedRuns: number;
  /** Messages the last model call was sent (absent in runs continued before the worker's conversation cache). */
  modelSeen?: number;
  /** The summary that stands for the oldest messages in what the model is sent (a context budget). */
  window?: ConversationWindow;
  subAgents?: SubAgentUsage[];
  /** Inputs added and not yet seen by the model, and how many were added (absent before 0.6.0). */
  queuedInputs?: QueuedInput[];
  inputsAdded?: number;
  /** Answers refused for not fitting the output schema so far (absent when none). */
  outputRetries?: number;
  /** The run's budget: its limits now and what people allowed (absent without one). */
  budget?: RunBudget;
  /** The last model call's reported tokens, the base of the next call's estimate (absent before 0.6.0). */
  lastCall?: { promptTokens: number; completionTokens: number; messageCount: number };
  /** A fork's origin (absent in runs that are not forks). */
  fork?: ForkOrigin;
}

export interface AgentRunResult<TData = unknown> {
  status: FinalStatus;
  /** The answer; for an agent with an output schema, its JSON text. */
  output: string;
  /**
   * The typed answer of an agent with an output schema (`defineAgent({ output })`), as the model
   * wrote it; `result()` of a run started with the agent's definition parses it with the schema.
   */
  data?: TData;
  /**
   * The conversation. In the workflow's own result it is the newest messages that fit in 1 MiB
   * (Temporal refuses results over 2 MiB) and `messageCount` says how many there are; the client's
   * `result()` reads the rest through the `conversationPage` query and gives them all.
   */
  messages: Message[];
  /** Set when the workflow's result holds only the newest messages: the conversation's length. */
  messageCount?: number;
  /** The run's model calls and those of every sub-agent it called. */
  usage: TokenUsage;
  /** Sum of the calls' costs; only when the agent has a price table (ModelSettings.prices). */
  cost?: number;
  iterations: number;
  /** Per sub-agent call, in the order they finished, what it cost (included in usage and cost); absent when the run called none. */
  subAgents?: SubAgentUsage[];
  /** With a budget: its limits at the end, what people allowed on top (each allowance is a `budget_raised` event, with who allowed it). */
  budget?: BudgetReport;
}

/** A run's budget as its result and state show it. */
export interface BudgetReport {
  limit: Spend;
  spent: Spend;
  /** What people allowed on top of the starting limits (the run's and its sub-agents'). */
  raised: Spend;
}

/** The answer of the `state` query. */
export interface AgentRunState {
  agent: string;
  /** The user id the run was started with (runtime context), when it had one. */
  startedBy?: string;
  status: RunStatus;
  iterations: number;
  maxIters: number;
  usage: TokenUsage;
  /** As in AgentRunResult: only with a price table. */
  cost?: number;
  /**
   * The newest messages that fit in STATE_MESSAGES_BYTES of JSON (all of them in all but very long
   * runs), so the answer stays under Temporal's payload limit; `messageCount` is the whole count and
   * the `conversationPage` query reads any range.
   */
  messages: Message[];
  /** How many messages the conversation has; absent from runs recorded before it existed. */
  messageCount?: number;
  /** The calls that wait for a person or an outside result, the run's own and its sub-agents'. */
  pending: PendingCall[];
  activeGroups: string[];
  sessionRules: string[];
  currentStep: string;
  lastToolCalls: ToolCall[];
  output?: string;
  /** With a budget: its limits now, what is spent and what people allowed. */
  budget?: BudgetReport;
  /** Set when the run is a fork of another run: which, and after which of its events. */
  fork?: ForkOrigin;
}

/**
 * The `state` query's answer: the public state and, for the runtime's own readers, the record of
 * each call of the batch being handled (absent from runs recorded before it existed).
 */
export interface StateQueryAnswer extends AgentRunState {
  calls?: ToolCallRecord[];
}
