import type { Message, ToolMessage } from '../../src/common/messages';

/** The tool results of a conversation, in order. */
export function toolMessages(messages: Message[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => m.role === 'tool');
}
