import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { TokenUsage } from '../common/messages';
import { assistantReply, usageFrom } from './assistant-reply';
import type { ChatModelCallOptions, ChatModelResult } from './chat-model-types';
import { ModelResponseError } from './model-response-error';
import { ToolCallAccumulator, type ToolCallDelta } from './tool-call-accumulator';
import type { LiveDelta } from '../common/contracts/live-deltas';

/** The tool-call fragments of a chunk as deltas; malformed ones (no index) are left to the accumulator. */
function toolCallPieces(deltas: unknown): LiveDelta[] {
  if (!Array.isArray(deltas)) return [];
  return deltas.flatMap((delta: ToolCallDelta | null | undefined) => {
    if (!delta || typeof delta.index !== 'number') return [];
    const fn = delta.function ?? undefined;
    const args = typeof fn?.arguments === 'string' ? fn.arguments : '';
    return [
      {
        type: 'tool_call' as const,
        index: delta.index,
        ...(typeof delta.id === 'string' && delta.id !== '' ? { id: delta.id } : {}),
        ...(typeof fn?.name === 'string' && fn.name !== '' ? { name: fn.name } : {}),
        arguments: args,
      },
    ];
  });
}

/**
 * Folds a chunk stream into the result the non-streaming path gives for the same reply.
 * A stream that ends without a finish reason is truncated: its tool-call arguments may be cut off.
 */
export async function readCompletionStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  model: string,
  options: Pick<ChatModelCallOptions, 'onText' | 'onChunk' | 'onDelta'> = {},
): Promise<ChatModelResult> {
  const calls = new ToolCallAccumulator();
  let content = '';
  let refusal = '';
  let finishReason: string | null = null;
  let usage: TokenUsage | undefined;

  for await (const chunk of chunks) {
    options.onChunk?.();
    if (chunk.usage) usage = usageFrom(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string' && delta.content !== '') {
      content += delta.content;
      options.onText?.(content);
      options.onDelta?.({ type: 'text', text: delta.content });
    }
    if (typeof delta.refusal === 'string') refusal += delta.refusal;
    calls.addAll(delta.tool_calls);
    if (options.onDelta) for (const piece of toolCallPieces(delta.tool_calls)) options.onDelta(piece);
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }

  if (finishReason === null) {
    throw new ModelResponseError('truncated', `The stream from model ${model} ended before the model finished.`);
  }
  return {
    message: assistantReply(content || refusal, calls.toolCalls(), model),
    usage: usage ?? usageFrom(undefined),
    model,
    finishReason,
  };
}
