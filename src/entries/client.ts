// durable-agent/client: starting, following and answering runs and conversations. Loads no worker,
// webpack, MCP or OpenTelemetry code (tracing loads only when it is on).

export { AgentClient, type AgentClientOptions, type RunSummary, type StartOptions } from '../client/agent-client';
export { AgentRun, type MessagesPage, type WatchOptions } from '../client/agent-run';
export type { PartialTextUpdate, RunUpdate, SubAgentUpdate } from '../client/run-updates';
export type { WaitingCallsOptions, WaitingCallsPage } from '../client/waiting-calls';
export type { UnreadableReason, UnreadableRun } from '../client/unreadable-run';
export type { PublishedCall, TopRun, WaitingCall } from '../common/contracts/published-waits';
export { Conversation, ConversationEndedError, type ConversationOptions, type SentMessage } from '../client/conversation';
export type { AgentRef, RunResult } from '../client/typed-data';
export type { FairnessOption } from '../client/fairness';
export { BUDGET_TOOL, type Budget, type Spend } from '../common/budget';
export { RunRequestRejectedError } from '../client/request-rejected';
export { StartInputTooLargeError } from '../client/start-input-size';
export { ForkRefusedError } from '../client/fork/fork-point';
export type { ForkOptions } from '../client/fork/start-fork';
export type { ForkOrigin } from '../common/fork';
export {
  AgentSchedule,
  ScheduleExistsError,
  ScheduleNotFoundError,
  ScheduleOptionsError,
  type AgentScheduleDescription,
  type AgentScheduleOptions,
  type AgentScheduleSummary,
  type BackfillOptions,
  type ScheduledRun,
  type ScheduleOverlap,
} from '../client/schedules';
export { TemporalConnectionError } from '../connection/temporal-connection-error';
export { describeConnection, resolveConnectionSettings, type ConnectionSettings } from '../connection/connection-settings';
export type { ConnectionOverrides } from '../connection/connection-overrides';
export { InvalidCursorError, type StreamItem, type StreamWaitingCall } from '../client/stream/stream-items';
export type { StreamOptions } from '../client/stream/run-stream';
export { UnreadableDeltaError } from '../client/stream/live-delta-reader';
export { createRunStreamHandler, type RunStreamHandler, type RunStreamHandlerOptions } from '../client/stream/stream-http';
export type { ConversationEndReason, ConversationInput, ConversationResult, TurnResult } from '../common/conversation';
export type { AgentEvent, AgentEventType } from '../common/events';
export type { ContentBlock, Message, TokenUsage, ToolCall, ToolMessage } from '../common/messages';
export type { DelegatedCall } from '../common/definitions';
export type { AgentRunResult, AgentRunState, ApprovalDecision, BudgetReport, PendingCall, RunStatus, SubAgentUsage, SubmittedResult } from '../common/run';
// The workflow's record of each call (ToolCallRecord) is its own and not exported: a user reads
// what waits in the state's `pending`, and how a call was answered in the run's events.
export type { CallAnswer, CallOutcome, WaitKind } from '../common/tool-call-record';
export type { TelemetryOptions } from '../telemetry/telemetry-options';
export * from './failures';
export * from './run-handlers';
