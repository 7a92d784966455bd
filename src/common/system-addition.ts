import type { Message, SystemMessage } from './messages';

/** The messages with `addition` joined to the first system message (or as one, when there is none). */
export function appendToSystem(messages: Message[], addition: string | undefined): Message[] {
  if (!addition) return messages;
  const index = messages.findIndex((m) => m.role === 'system');
  if (index < 0) return [{ role: 'system', content: addition }, ...messages];
  const system = messages[index] as SystemMessage;
  const content = system.content ? `${system.content}\n\n${addition}` : addition;
  return [...messages.slice(0, index), { role: 'system', content }, ...messages.slice(index + 1)];
}
