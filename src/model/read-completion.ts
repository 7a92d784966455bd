import type { ChatCompletion } from 'openai/resources/chat/completions';
import { assistantReply, usageFrom } from './assistant-reply';
import type { ChatModelResult } from './chat-model-types';
import { readMessageToolCalls } from './message-tool-calls';
import { ModelResponseError } from './model-response-error';

/** Reads a non-streaming completion into the same result the streaming path builds. */
export function readCompletion(completion: ChatCompletion, model: string): ChatModelResult {
  const choice = Array.isArray(completion?.choices) ? completion.choices[0] : undefined;
  if (!choice?.message) {
    throw new ModelResponseError('invalid', `Model ${model} returned a completion without choices.`);
  }
  const text = choice.message.content || choice.message.refusal || '';
  return {
    message: assistantReply(text, readMessageToolCalls(choice.message.tool_calls), model),
    usage: usageFrom(completion.usage),
    model,
    finishReason: choice.finish_reason ?? null,
  };
}
