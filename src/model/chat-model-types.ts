import type { ModelSettings } from '../common/agent';
import type { AssistantMessage, Message, TokenUsage } from '../common/messages';
import type { JsonSchema } from '../common/tools';
import type { LiveDelta } from '../common/contracts/live-deltas';

/** A tool as the model sees it. */
export interface ModelToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export interface ChatModelRequest {
  /** Model name; falls back to `settings.name`, then the client's default model. */
  model?: string;
  messages: Message[];
  tools: ModelToolDefinition[];
  settings: ModelSettings;
  /** The reply's text is to be one JSON value of this schema (OpenAI's `json_schema` response format). */
  responseFormat?: { name: string; schema: JsonSchema };
}

export interface ChatModelCallOptions {
  /** Aborting it cancels the call with a `CancelledFailure`. */
  signal?: AbortSignal;
  /** Streaming: called with the whole text so far after each text chunk. Non-streaming: once, with the final text. */
  onText?(textSoFar: string): void;
  /** Streaming: called for every chunk received, so a caller can heartbeat while long tool-call arguments arrive. */
  onChunk?(): void;
  /** Streaming: each piece of text or tool call as it arrives. */
  onDelta?(delta: LiveDelta): void;
}

/** OpenAI's finish reasons, or whatever else an OpenAI-compatible provider sends. */
export type ModelFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call' | (string & {});

export interface ChatModelResult {
  message: AssistantMessage;
  usage: TokenUsage;
  /** The model name the request was sent with. */
  model: string;
  finishReason: ModelFinishReason | null;
}

export interface ChatModel {
  complete(request: ChatModelRequest, options?: ChatModelCallOptions): Promise<ChatModelResult>;
}

export interface ChatModelConfig {
  /** Default https://api.openai.com/v1. */
  baseURL?: string;
  apiKey: string;
  defaultModel: string;
  /** Bound on one call, response body included. Default 5 minutes. */
  timeoutMs?: number;
  /** Models whose replies' text is read for tool calls when an agent's settings say nothing (`*`: all); see text-tool-calls.ts. */
  textToolCallModels?: string[];
  /** Models whose tool calls are held to the offered schemas by the server's JSON-schema response format (`*`: all); see constrained-calls.ts. */
  constrainedCallModels?: string[];
}
