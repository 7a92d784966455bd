import type { ScriptedRequestMessage, ScriptedToolResult } from './scripted-model-types';

/** The turn a request asks for: one per assistant message already in the conversation. */
export function countAssistantTurns(messages: ScriptedRequestMessage[]): number {
  return messages.filter((message) => message.role === 'assistant').length;
}

/** Plain text of a message's content, whether a string or an array of text parts. */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === 'object' && typeof part.text === 'string' ? part.text : ''))
      .join('');
  }
  return '';
}

/** Tool results that answer the last assistant message, with the name and arguments of the call they answer. */
export function readToolResults(messages: ScriptedRequestMessage[]): ScriptedToolResult[] {
  let lastAssistant = -1;
  messages.forEach((message, index) => {
    if (message.role === 'assistant') lastAssistant = index;
  });
  const calls = lastAssistant >= 0 ? (messages[lastAssistant].tool_calls ?? []) : [];
  return messages
    .slice(lastAssistant + 1)
    .filter((message) => message.role === 'tool')
    .map((message) => {
      const call = calls.find((candidate) => candidate.id === message.tool_call_id);
      return {
        toolCallId: message.tool_call_id ?? '',
        name: call?.function.name ?? '',
        arguments: call?.function.arguments ?? '',
        content: messageText(message.content),
      };
    });
}

export function lastUserText(messages: ScriptedRequestMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index].role === 'user') return messageText(messages[index].content);
  }
  return '';
}
