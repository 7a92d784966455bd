/** A tool call as the model emitted it; `arguments` is the raw JSON text, validated later. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'json'; data: unknown }
  | { type: 'image'; url: string; mimeType?: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string };

/**
 * How a tool call ended. `success` and `error` come from running the tool; `denied` from the
 * permission engine or a person; `cancelled` when the run stopped before the call ran.
 */
export type ToolResultState = 'success' | 'error' | 'denied' | 'cancelled';

export interface SystemMessage {
  role: 'system';
  content: string;
}

export interface UserMessage {
  role: 'user';
  content: string;
}

export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  toolCalls?: ToolCall[];
  /** The model that produced this message (the fallback chain may switch models). */
  model?: string;
}

export interface ToolMessage {
  role: 'tool';
  toolCallId: string;
  name: string;
  /** The text the model sees. */
  content: string;
  state: ToolResultState;
  /** Rich content (json, images, resources) kept in the run's state, not sent to the model. */
  blocks?: ContentBlock[];
  /** A person approved the call with other arguments than the model's: the ones it ran with, and who. */
  edit?: { input: unknown; by?: string };
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export const emptyUsage = (): TokenUsage => ({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });

export function addUsage(a: TokenUsage, b: TokenUsage | undefined): TokenUsage {
  if (!b) return a;
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

/** Characters of the messages as JSON: the conversation cache's budget and the workflow's token estimate count these. */
export function jsonChars(messages: Message[]): number {
  return messages.reduce((sum, message) => sum + JSON.stringify(message).length, 0);
}
