import type { ModelSettings } from '../common/agent';
import type { Message } from '../common/messages';
import type { ModelToolDefinition } from './chat-model-types';
import { toOpenAIMessages, toOpenAITools } from './to-openai-messages';

/** The JSON body of one chat completion request. */
export type ChatRequestBody = Record<string, unknown> & { model: string; stream: boolean };

/**
 * Shapes the request body. `extraBody` may override the shaping fields but never `model`,
 * `messages`, `stream` or `stream_options`, which the response parsing depends on.
 */
export function buildChatRequest(input: {
  model: string;
  messages: Message[];
  tools: ModelToolDefinition[];
  settings: ModelSettings;
  responseFormat?: { name: string; schema: Record<string, unknown> };
}): ChatRequestBody {
  const { settings } = input;
  const stream = settings.stream === true;
  const hasTools = input.tools.length > 0;
  const shaping: Record<string, unknown> = {};
  if (hasTools) {
    shaping.tools = toOpenAITools(input.tools);
    if (settings.toolChoice !== undefined) shaping.tool_choice = settings.toolChoice;
    if (settings.parallelToolCalls !== undefined) shaping.parallel_tool_calls = settings.parallelToolCalls;
  }
  if (settings.temperature !== undefined) shaping.temperature = settings.temperature;
  if (settings.maxTokens !== undefined) shaping.max_tokens = settings.maxTokens;
  if (input.responseFormat) shaping.response_format = { type: 'json_schema', json_schema: { name: input.responseFormat.name, schema: input.responseFormat.schema } };

  return {
    ...shaping,
    ...(settings.extraBody ?? {}),
    model: input.model,
    messages: toOpenAIMessages(input.messages),
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
  };
}
