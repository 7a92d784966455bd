import { messageText } from './scripted-request-reader';
import type { ScriptedRequest, ScriptedTurnSpec, ScriptedUsage } from './scripted-model-types';
import { argumentsText } from './scripted-turn';

/** The scripted server's token count for a text: one token per 4 characters, rounded up. */
export function scriptedTokenCount(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Prompt tokens count the request's message texts and tool-call arguments; completion tokens the reply's. */
export function scriptedUsage(request: ScriptedRequest, turn: ScriptedTurnSpec): ScriptedUsage {
  const promptText = request.messages
    .map((message) => {
      const calls = (message.tool_calls ?? []).map((call) => call.function.arguments);
      return messageText(message.content) + calls.join('');
    })
    .join('');
  const completionText =
    (turn.text ?? '') + (turn.toolCalls ?? []).map((call) => call.name + argumentsText(call)).join('');
  return {
    promptTokens: turn.usage?.promptTokens ?? scriptedTokenCount(promptText),
    completionTokens: turn.usage?.completionTokens ?? scriptedTokenCount(completionText),
  };
}
