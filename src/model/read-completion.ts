import type { ChatCompletion } from 'openai/resources/chat/completions';
import { assistantReply, usageFrom } from './assistant-reply';
import type { ChatModelResult } from './chat-model-types';
import { ModelResponseError } from './model-response-error';
import { ToolCallAccumulator } from './tool-call-accumulator';

/** Reads a non-streaming completion into the same result the streaming path builds. */
export function readCompletion(completion: ChatCompletion, model: string): ChatModelResult {
  const choice = Array.isArray(completion?.choices) ? completion.choices[0] : undefined;
  if (!choice?.message) {
    throw new ModelResponseError('invalid', `Model ${model} returned a completion without choices.`);
  }

  // The same accumulator as streaming, so both paths name, id and order tool calls alike.
  const calls = new ToolCallAccumulator();
  (choice.message.tool_calls ?? []).forEach((call, index) => {
    if (call.type === 'function' || call.type === undefined) calls.add({ index, id: call.id, function: call.function });
  });
  const text = choice.message.content || choice.message.refusal || '';

  return {
    message: assistantReply(text, calls.toolCalls(), model),
    usage: usageFrom(completion.usage),
    model,
    finishReason: choice.finish_reason ?? null,
  };
}
