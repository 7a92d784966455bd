// The public API of durable-agent, by name.
import { FailureTypes } from './common/failures';

export { defineTool, type AnyTool, type Tool, type ToolContext, type ToolOptions, type ToolPermission, type RichToolResult } from './toolkit/define-tool';
export { defineAgent, type AgentDefinition, type AgentOptions, type ToolFilter, type ToolGroupOptions } from './toolkit/define-agent';
export type { MemorySettings } from './common/memory';
export { RetryableToolError } from './toolkit/tool-errors';
export { harnessTools, type HarnessToolsOptions } from './toolkit/tools/harness-tools';
export { checkShellCommand } from './toolkit/tools/shell/check-shell-command';
export { createWorker, type AgentWorker, type CreateWorkerOptions } from './worker/create-worker';
export { bundleAgentWorkflows, type AgentWorkflowsBundle, type BundleAgentWorkflowsOptions } from './worker/bundle-workflows';
export { readWorkerConfig, type TemporalConnectionOptions, type WorkerConfig, type WorkerEnvConfig } from './worker/config';
export type { Middleware, ToolCallInfo } from './activities/middleware';
export { AgentClient, type AgentClientOptions, type RunSummary, type StartOptions } from './client/agent-client';
export { describeConnection, resolveConnectionSettings, type ConnectionSettings } from './connection/connection-settings';
export type { ConnectionOverrides } from './connection/connection-overrides';
export { TemporalConnectionError } from './connection/temporal-connection-error';
export { AgentRun, type RunUpdate, type WatchOptions } from './client/agent-run';
export { Conversation, ConversationEndedError, type ConversationOptions, type SentMessage } from './client/conversation';
export type { ConversationEndReason, ConversationInput, ConversationResult, SendMessageRequest, TurnResult } from './common/conversation';
export type { PartialText, PartialTextUpdate } from './client/partial-text';
export { RunRequestRejectedError } from './client/request-rejected';
export { runCli } from './client/cli/run-cli';
export { createEncryptionCodec, ENCRYPTED_ENCODING, KEY_ID_METADATA } from './codec/encryption-codec';
export { encryptedDataConverter } from './codec/encrypted-data-converter';
export type { EncryptionKeySet } from './codec/encryption-keys';
export { loadEncryptionKeys, readEncryptionKeyFile } from './codec/load-encryption-keys';
export { EncryptionKeyError } from './codec/encryption-key-error';
export { PayloadDecryptionError } from './codec/payload-decryption-error';
export { startCodecServer, type CodecServer, type CodecServerOptions } from './codec/codec-server';
export { createChatModel } from './model/create-chat-model';
export type { ChatModel, ChatModelConfig } from './model/chat-model-types';
export { evaluatePermission, type PermissionRequest } from './permissions';
export { loadToolsConfig, createMcpManager, type McpServersInput, type ToolsConfig } from './mcp';
export { startScriptedModelServer } from './testing/scripted-model-server';
export type { ModelScript, ScriptedModelServer, ScriptedTurn } from './testing/scripted-model-types';
export * from './common/definitions';
export { AGENT_NAME, AGENT_STATUS, AGENT_TOTAL_TOKENS } from './common/search-attributes';
export { FailureTypes };
/** A failed run: run.result() throws a WorkflowFailedError whose cause is an ApplicationFailure of one of these types. */
export type FailureType = (typeof FailureTypes)[keyof typeof FailureTypes];
export type { ModelFailureDetails } from './model/classify-model-error';
// What run.result() throws for a run that ended without an answer (the error and its possible
// causes), re-exported so they are the very classes the client uses.
export { WorkflowFailedError } from '@temporalio/client';
export { ApplicationFailure, CancelledFailure, TerminatedFailure, TimeoutFailure } from '@temporalio/common';
export type { AgentDescriptor, ModelSettings } from './common/agent';
export { callCost, type ModelPrice, type PriceTable } from './common/pricing';
export type { AgentEvent, AgentEventType } from './common/events';
export type { ContentBlock, Message, TokenUsage, ToolCall, ToolMessage } from './common/messages';
export type { PermissionDecision, PermissionMode, PermissionSettings } from './common/permissions';
export type { AgentRunResult, AgentRunState, AgentWorkflowInput, PendingCall, RunStatus } from './common/run';
export type { RuntimeContext } from './common/runtime';
export type { ToolSpec } from './common/tools';
export type { TelemetryOptions } from './telemetry/telemetry-options';
export { installRuntime, type InstallRuntimeOptions, type RuntimeMetricsOptions } from './telemetry/install-runtime';
export { agentWorkflowSinks } from './telemetry/agent-workflow-sinks';
export { agentWorkflowInterceptorModules } from './telemetry/workflow-interceptor-modules';
export { AgentMetric } from './telemetry/metric-names';
