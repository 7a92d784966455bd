import type { ScriptedUsage } from './scripted-model-types';
import { finishReasonOf, type ResolvedTurn } from './scripted-turn';

export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
}

export function usageBody(usage: ScriptedUsage) {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
}

/** The body of a non-streaming chat completion, as OpenAI shapes it. */
export function completionBody(turn: ResolvedTurn, usage: ScriptedUsage, meta: CompletionMeta) {
  const hasCalls = turn.toolCalls.length > 0;
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: hasCalls && turn.text === '' ? null : turn.text,
          refusal: null,
          ...(hasCalls
            ? {
                tool_calls: turn.toolCalls.map((call) => ({
                  ...(call.id !== undefined ? { id: call.id } : {}),
                  type: 'function',
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: finishReasonOf(turn),
      },
    ],
    usage: usageBody(usage),
  };
}
