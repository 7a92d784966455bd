import type { AssistantMessage, TokenUsage, ToolCall } from '../common/messages';

/** The one shape both the streaming and the non-streaming path produce. */
export function assistantReply(text: string, toolCalls: ToolCall[], model: string): AssistantMessage {
  if (toolCalls.length === 0) return { role: 'assistant', content: text, model };
  return { role: 'assistant', content: text === '' ? null : text, toolCalls, model };
}

interface RawUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
}

export function usageFrom(raw: RawUsage | null | undefined): TokenUsage {
  const promptTokens = raw?.prompt_tokens ?? 0;
  const completionTokens = raw?.completion_tokens ?? 0;
  return { promptTokens, completionTokens, totalTokens: raw?.total_tokens ?? promptTokens + completionTokens };
}
