import type { AssistantMessage, ToolCall } from '../common/messages';
import { argumentsText } from './tool-call-parts';

/**
 * Tool calls a model wrote in its reply's text instead of `tool_calls`, as small open models and
 * some servers do: Hermes/Qwen `<tool_call>{…}</tool_call>` tags, Mistral `[TOOL_CALLS] […]`,
 * Llama's `<|python_tag|>{…}`, and a JSON object (or array of them) naming a tool, bare or in a
 * code fence. A call is an object with a `name` (or `function.name`) and `arguments` or
 * `parameters`; its name need not be offered: a call of an unknown tool is then the model's
 * mistake, answered with an error result it reads, never taken for the final answer. Whatever
 * wraps a call (other tags such as `<json>`, a fence, a lead-in sentence) is not part of it, and
 * markup left empty once the call is out is no text. Hand-written because the formats are the
 * models', not a grammar a library covers.
 */

const TAGGED = /<tool_call>\s*([\s\S]*?)\s*(?:<\/tool_call>|$)/g;
/** Markers and wrapper tags the models put around calls; none of them is text of the reply. */
const MARKERS = /\[TOOL_CALLS\]|<\|python_tag\|>|<\|tool_calls?\|>|<\/?(?:function_calls?|tool_calls?|json)>/g;
/** A tag pair or a code fence with nothing in it, as a call taken out of it leaves (`<json></json>`, "```json ```"). */
const EMPTY_MARKUP = /<([a-zA-Z_][\w-]*)>\s*<\/\1>|```[\w-]*\s*```/g;
/** Closing tags and fences that end a reply after a call, which belong to no call. */
const CLOSING_MARKUP = /(?:\s*(?:<\/[a-zA-Z_][\w-]*>|```))+\s*$/;

interface Found {
  call: Omit<ToolCall, 'id'>;
  start: number;
  end: number;
}

/** The JSON values (objects or arrays) in `text`, with where each starts and ends; strings are skipped as strings. */
function jsonSpans(text: string): { value: unknown; start: number; end: number }[] {
  const spans: { value: unknown; start: number; end: number }[] = [];
  let i = 0;
  while (i < text.length) {
    const open = text[i];
    if (open !== '{' && open !== '[') {
      i += 1;
      continue;
    }
    const end = matchingEnd(text, i);
    if (end < 0) {
      i += 1;
      continue;
    }
    try {
      spans.push({ value: JSON.parse(text.slice(i, end + 1)) as unknown, start: i, end: end + 1 });
      i = end + 1;
    } catch {
      i += 1;
    }
  }
  return spans;
}

function matchingEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** A parsed value as a tool call, when it is shaped like one. */
function callOf(value: unknown): Omit<ToolCall, 'id'> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entry = value as Record<string, unknown>;
  const fn = entry.function && typeof entry.function === 'object' ? (entry.function as Record<string, unknown>) : undefined;
  const name = typeof entry.name === 'string' ? entry.name : typeof fn?.name === 'string' ? fn.name : undefined;
  const args = 'arguments' in entry ? entry.arguments : 'parameters' in entry ? entry.parameters : fn && 'arguments' in fn ? fn.arguments : fn?.parameters;
  if (!name || args === undefined) return undefined;
  return { name, arguments: argumentsText(args) };
}

function callsIn(value: unknown): Omit<ToolCall, 'id'>[] {
  if (Array.isArray(value)) {
    const calls = value.map(callOf);
    return calls.every((call) => call !== undefined) ? (calls as Omit<ToolCall, 'id'>[]) : [];
  }
  const call = callOf(value);
  return call ? [call] : [];
}

/** Where a call starts as a call would (`{"name": "x", "arguments": …`), after a lead-in or a wrapper or not. */
const CALL_START = /\{\s*"name"\s*:\s*"([^"]+)"\s*,\s*"(?:arguments|parameters)"\s*:\s*/;

/**
 * A reply that holds the start of a call but no JSON of one: a call all the same, whose arguments
 * (the rest of the reply, but the closing markup after them) fail to parse or are read as written.
 */
function brokenCall(text: string): Found[] {
  const start = CALL_START.exec(text);
  if (!start) return [];
  const argsFrom = start.index + start[0].length;
  const closing = CLOSING_MARKUP.exec(text.slice(argsFrom));
  const end = closing ? argsFrom + closing.index : text.length;
  return [{ call: { name: start[1]!, arguments: text.slice(argsFrom, end).trim() }, start: start.index, end }];
}

function found(text: string): Found[] {
  // An empty `<tool_call></tool_call>` is markup left over, not a call.
  const tagged = [...text.matchAll(TAGGED)].filter((match) => match[1]!.trim() !== '');
  if (tagged.length > 0) {
    return tagged.flatMap((match) => {
      const inner = jsonSpans(match[1]!).flatMap((span) => callsIn(span.value));
      // A tag whose content is not JSON is still a call the model meant: its text is the arguments' error.
      const calls = inner.length > 0 ? inner : [{ name: /"name"\s*:\s*"([^"]+)"/.exec(match[1]!)?.[1] ?? '', arguments: match[1]! }];
      return calls.map((call) => ({ call, start: match.index!, end: match.index! + match[0].length }));
    });
  }
  const calls = jsonSpans(text).flatMap((span) => callsIn(span.value).map((call) => ({ call, start: span.start, end: span.end })));
  if (calls.length > 0) return calls;
  return brokenCall(text);
}

/** The text without its markers and its empty markup (nested empty markup included). */
function withoutMarkup(text: string): string {
  let kept = text.replace(MARKERS, '');
  for (let before = ''; before !== kept; ) {
    before = kept;
    kept = kept.replace(EMPTY_MARKUP, '');
  }
  return kept.trim();
}

/** The text left once the calls (and their markers and empty markup) are taken out. */
function rest(text: string, calls: Found[]): string {
  let kept = '';
  let at = 0;
  for (const { start, end } of [...calls].sort((a, b) => a.start - b.start)) {
    if (start < at) continue;
    kept += text.slice(at, start);
    at = end;
  }
  kept += text.slice(at);
  return withoutMarkup(kept);
}

/**
 * The reply with the calls its text holds as tool calls (ids `text_call_N`, which the workflow
 * makes unique), when it has no native ones; a reply that is only markup is empty. Without tools
 * offered (the summary at the iteration limit) a call written as text cannot run and is no answer
 * either: it is taken out, and a reply that was only a call is left empty (the workflow then ends
 * the run with what the model wrote last, see workflows/run/iteration-limit.ts).
 */
export function readTextToolCalls(message: AssistantMessage, offered: number): AssistantMessage {
  if ((message.toolCalls?.length ?? 0) > 0 || !message.content) return message;
  const calls = found(message.content);
  if (calls.length === 0) return withoutMarkup(message.content) === '' ? { ...message, content: null } : message;
  const text = rest(message.content, calls);
  const content = text === '' ? null : text;
  if (offered === 0) return { ...message, content };
  const toolCalls = calls.map(({ call }, index): ToolCall => ({ id: `text_call_${index}`, ...call }));
  return { ...message, content, toolCalls };
}

/** Whether calls are read from this reply's text: the agent's model settings say so, or the worker does for this model. */
export function readsTextToolCalls(agentSetting: boolean | undefined, workerModels: readonly string[], model: string): boolean {
  if (agentSetting !== undefined) return agentSetting;
  return workerModels.includes('*') || workerModels.includes(model);
}
