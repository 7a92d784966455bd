import type { ToolCall } from '../common/messages';
import { argumentsText, isRealToolName, positionalCallId } from './tool-call-parts';

/** One entry of a non-streaming reply's `tool_calls`, typed loosely because providers send malformed ones. */
interface MessageToolCall {
  id?: unknown;
  type?: unknown;
  function?: { name?: unknown; arguments?: unknown } | null;
}

/**
 * The tool calls of a non-streaming reply, in the order given. Each entry is a call of its own,
 * even when it repeats another's id: only streamed fragments are ever joined, and the workflow
 * gives a repeated id a fresh one.
 */
export function readMessageToolCalls(entries: unknown): ToolCall[] {
  if (!Array.isArray(entries)) return [];
  const calls = entries.filter(isFunctionCall).map((entry) => {
    const fn = entry.function && typeof entry.function === 'object' ? entry.function : undefined;
    return {
      id: typeof entry.id === 'string' && entry.id !== '' ? entry.id : undefined,
      name: isRealToolName(fn?.name) ? fn.name : '',
      arguments: argumentsText(fn?.arguments),
    };
  });
  return calls
    .filter((call) => call.id !== undefined || call.name !== '' || call.arguments !== '')
    .map((call, position) => ({ ...call, id: call.id ?? positionalCallId(position) }));
}

function isFunctionCall(entry: unknown): entry is MessageToolCall {
  if (!entry || typeof entry !== 'object') return false;
  const type = (entry as MessageToolCall).type;
  return type === 'function' || type === undefined || type === null;
}
