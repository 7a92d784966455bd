import type { ConversationWindow } from '../common/memory';
import type { AgentDescriptor, ModelSettings } from '../common/agent';
import type { AssistantMessage, ContentBlock, Message, TokenUsage, ToolCall, ToolResultState } from '../common/messages';
import type { PermissionDecision, PermissionMode } from '../common/permissions';
import type { RuntimeContext } from '../common/runtime';

/** Sandbox-safe shapes of activity inputs and outputs; the workflow imports them as types. */

export interface DescribeAgentInput {
  agent: string;
}

export interface ModelToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface CallModelInput {
  agent: string;
  model: string;
  settings: ModelSettings;
  messages: Message[];
  tools: ModelToolDefinition[];
  iteration: number;
}

/**
 * What the workflow schedules: a reference to the conversation instead of the conversation, so
 * history grows with each message once, not with every model call.
 */
export interface CallModelRequest extends Omit<CallModelInput, 'messages'> {
  conversation: {
    /** The model gets the first `messageCount` messages of the run's conversation. */
    messageCount: number;
    /** Joined to the system message for this call only (e.g. the active tool groups). */
    systemAddition?: string;
    /**
     * The conversation's identity across continue-as-new (the chain's first run id): the key of the
     * worker's conversation cache. Absent in calls scheduled before the cache existed.
     */
    id?: string;
    /** With a context budget: the model is sent the system message, the summary, then the messages from `window.from`. */
    window?: ConversationWindow;
    /** `messages` are the conversation's messages from this index up to `messageCount`. */
    from?: number;
    /** The messages since the previous model call; the worker has or reads the ones before `from`. */
    messages?: Message[];
  };
}

export interface CallModelOutput {
  message: AssistantMessage;
  usage: TokenUsage;
  model: string;
}

export interface PrepareToolCallsInput {
  agent: string;
  calls: ToolCall[];
  mode: PermissionMode;
  sessionRules: string[];
  runtime: RuntimeContext;
  /** A tool missing on this worker: `report` it (outcome `unavailable`) or `fail` retryably. */
  onMissing?: 'report' | 'fail';
}

/** What the worker decided about one call before anything runs. */
export type PreparedCall =
  | { callId: string; tool: string; outcome: 'result'; result: ToolCallResult; decision?: PermissionDecision }
  | { callId: string; tool: string; outcome: 'run'; input: unknown; decision: PermissionDecision }
  | { callId: string; tool: string; outcome: 'ask'; input: unknown; decision: PermissionDecision }
  | { callId: string; tool: string; outcome: 'external'; input: unknown }
  | { callId: string; tool: string; outcome: 'unavailable' };

export interface ValidateEditedInputInput {
  agent: string;
  tool: string;
  input: unknown;
}

export type ValidateEditedInputOutput = { ok: true; input: unknown } | { ok: false; message: string };

export interface ExecuteToolInput {
  agent: string;
  tool: string;
  callId: string;
  input: unknown;
  runtime: RuntimeContext;
  maxResultChars: number;
}

export interface ToolCallResult {
  content: string;
  state: ToolResultState;
  blocks?: ContentBlock[];
}

export type ExecuteToolOutput =
  | { kind: 'result'; result: ToolCallResult }
  | { kind: 'suspended'; reason: string };

export type { AgentDescriptor };
