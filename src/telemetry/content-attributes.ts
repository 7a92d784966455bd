import type { AssistantMessage, Message, ToolCall } from '../common/messages';

// The GenAI conventions' JSON shapes for captured content: messages made of typed parts.

type Part = Record<string, unknown> & { type: string };
type ChatMessage = { role: string; parts: Part[] };

function argumentsValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function toolCallPart(call: ToolCall): Part {
  return { type: 'tool_call', id: call.id, name: call.name, arguments: argumentsValue(call.arguments) };
}

function assistantParts(message: AssistantMessage): Part[] {
  return [...(message.content ? [{ type: 'text', content: message.content }] : []), ...(message.toolCalls ?? []).map(toolCallPart)];
}

export function systemInstructions(messages: Message[]): string | undefined {
  const system = messages.filter((m) => m.role === 'system');
  return system.length > 0 ? JSON.stringify(system.map((m) => ({ type: 'text', content: m.content }))) : undefined;
}

export function inputMessages(messages: Message[]): string {
  const parts = messages.flatMap((m): ChatMessage[] => {
    if (m.role === 'system') return [];
    if (m.role === 'assistant') return [{ role: 'assistant', parts: assistantParts(m) }];
    if (m.role === 'tool') return [{ role: 'tool', parts: [{ type: 'tool_call_response', id: m.toolCallId, response: m.content }] }];
    return [{ role: m.role, parts: [{ type: 'text', content: m.content }] }];
  });
  return JSON.stringify(parts);
}

export function outputMessages(message: AssistantMessage): string {
  const finishReason = message.toolCalls?.length ? 'tool_call' : 'stop';
  return JSON.stringify([{ role: 'assistant', parts: assistantParts(message), finish_reason: finishReason }]);
}
